//! The fan table: a count per fan id with a mask of the fans present, filled by the
//! detectors of [`super::score`], [`super::principles`] and [`super::special`].

use super::catalog::{Fan, N_FANS, POINTS};

/// Count per fan id, with a bit mask of the nonzero entries so that totals, exclusions
/// and listings visit only the fans present.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Table {
    counts: [u8; N_FANS],
    mask: u128,
}

impl Default for Table {
    fn default() -> Self {
        Table {
            counts: [0; N_FANS],
            mask: 0,
        }
    }
}

impl Table {
    /// Count of fan `f`.
    #[inline]
    pub fn get(&self, f: Fan) -> u8 {
        self.counts[f.0 as usize % N_FANS]
    }
    /// Sets the count of fan `f`.
    #[inline]
    pub fn put(&mut self, f: Fan, n: u8) {
        let i = f.0 as usize % N_FANS;
        self.counts[i] = n;
        if n == 0 {
            self.mask &= !(1u128 << i);
        } else {
            self.mask |= 1u128 << i;
        }
    }
    /// Bit set of the fans present (bit i = fan id i).
    #[inline]
    pub fn mask(&self) -> u128 {
        self.mask
    }
    /// True if no fan is present.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }
    /// Sets every fan present in `other` to its count there (the others are kept).
    #[inline]
    pub fn merge(&mut self, other: &Table) {
        let mut m = other.mask;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            self.counts[i % N_FANS] = other.counts[i % N_FANS];
        }
        self.mask |= other.mask;
    }
    /// Removes every fan of the bit set `kill` (bit i = fan id i; ids below [`N_FANS`]).
    #[inline]
    pub fn clear_all(&mut self, kill: u128) {
        let kill = kill & self.mask;
        for (half, base) in [(kill as u64, 0usize), ((kill >> 64) as u64, 64)] {
            let mut m = half;
            while m != 0 {
                let i = base + m.trailing_zeros() as usize;
                m &= m - 1;
                self.counts[i] = 0;
            }
        }
        self.mask &= !kill;
    }

    /// The union of `masks[i]` over the fans `i` present.
    #[inline]
    pub fn union_over(&self, masks: &[u128; N_FANS]) -> u128 {
        let mut out = 0u128;
        each_present(self.mask, |i| out |= masks[i]);
        out
    }

    /// The fans present, in id order, with their counts.
    pub fn iter(&self) -> impl Iterator<Item = (Fan, u8)> + '_ {
        let mut m = self.mask;
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some((Fan(i as u8), self.counts[i]))
        })
    }
}

/// Sum of points of a table: the fans present read from the two 64-bit halves of the
/// mask in turn (only the bits of fans present are set, each below [`N_FANS`]).
pub fn points(t: &Table) -> u32 {
    let mut sum = 0u32;
    each_present(t.mask, |i| sum += POINTS[i] as u32 * t.counts[i] as u32);
    sum
}

/// Calls `f` with the index of every bit set in `mask`, in order, reading the mask's two
/// 64-bit halves in turn (no 128-bit bit steps).
#[inline(always)]
fn each_present(mask: u128, mut f: impl FnMut(usize)) {
    for (half, base) in [(mask as u64, 0usize), ((mask >> 64) as u64, 64)] {
        let mut m = half;
        while m != 0 {
            let i = base + m.trailing_zeros() as usize;
            m &= m - 1;
            f(i);
        }
    }
}

#[inline]
pub(super) fn set(t: &mut Table, f: Fan) {
    t.put(f, 1);
}
#[inline]
pub(super) fn inc(t: &mut Table, f: Fan) {
    t.put(f, t.get(f).saturating_add(1));
}
#[inline]
pub(super) fn has(t: &Table, f: Fan) -> bool {
    t.get(f) != 0
}
#[inline]
pub(super) fn clear(t: &mut Table, f: Fan) {
    t.put(f, 0);
}
