//! The fixed hash table behind the strong policy's memos (discards of full hands, shapes
//! and waits of waiting hands).
//!
//! Each memo keeps `N` slots (a power of two) allocated once, finds a key by linear
//! probing from its `swar::mix` hash, and forgets everything at once by moving to a new
//! generation: a slot is filled only when it carries the table's generation. The table
//! starts over when three quarters full, so a probe always ends at a free slot.

use crate::shanten::swar;

/// A slot of a [`Table`]: its packed key and the generation it was filled in.
pub trait Slot<const K: usize>: Copy {
    /// An unfilled slot (generation 0, which the table never uses).
    const EMPTY: Self;
    /// The key the slot was filled for.
    fn key(&self) -> &[u64; K];
    /// The generation the slot was filled in.
    fn generation(&self) -> u32;
    /// A new slot for `key` in `generation`, knowing nothing else yet.
    fn fresh(key: [u64; K], generation: u32) -> Self;
}

/// `N` slots of `S` keyed by `K` words; see the module docs.
#[derive(Clone)]
pub struct Table<S, const K: usize, const N: usize> {
    slots: Box<[S]>,
    generation: u32,
    len: usize,
}

impl<S: Slot<K>, const K: usize, const N: usize> Table<S, K, N> {
    /// The table starts over when it holds this many keys.
    pub const FULL: usize = N * 3 / 4;

    /// An empty table.
    pub fn new() -> Self {
        debug_assert!(N.is_power_of_two());
        Table {
            slots: vec![S::EMPTY; N].into_boxed_slice(),
            generation: 1,
            len: 0,
        }
    }

    /// Keys held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No key held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Forgets every key.
    pub fn clear(&mut self) {
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Every slot's generation is stale again only after a full reset.
            self.slots.fill(S::EMPTY);
            self.generation = 1;
        }
    }

    /// The slot of `key` and whether it is new ([`Slot::fresh`]); starts over first when
    /// the table is full.
    #[inline]
    pub fn find(&mut self, key: &[u64; K]) -> (&mut S, bool) {
        if self.len >= Self::FULL {
            self.clear();
        }
        let mut i = (swar::mix(key) as usize) & (N - 1);
        loop {
            let s = &self.slots[i];
            if s.generation() != self.generation {
                self.slots[i] = S::fresh(*key, self.generation);
                self.len += 1;
                return (&mut self.slots[i], true);
            }
            if swar::same(s.key(), key) {
                return (&mut self.slots[i], false);
            }
            i = (i + 1) & (N - 1);
        }
    }
}

impl<S: Slot<K>, const K: usize, const N: usize> Default for Table<S, K, N> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy)]
    struct Cell {
        key: [u64; 2],
        generation: u32,
        value: u32,
    }

    impl Slot<2> for Cell {
        const EMPTY: Cell = Cell {
            key: [0; 2],
            generation: 0,
            value: 0,
        };
        fn key(&self) -> &[u64; 2] {
            &self.key
        }
        fn generation(&self) -> u32 {
            self.generation
        }
        fn fresh(key: [u64; 2], generation: u32) -> Cell {
            Cell {
                key,
                generation,
                value: 0,
            }
        }
    }

    #[test]
    fn keys_are_found_again_until_the_table_starts_over() {
        let mut t: Table<Cell, 2, 16> = Table::new();
        for k in 0..11u64 {
            let (s, new) = t.find(&[k, k * 7]);
            assert!(new);
            s.value = k as u32 + 100;
        }
        for k in 0..11u64 {
            let (s, new) = t.find(&[k, k * 7]);
            assert!(!new);
            assert_eq!(s.value, k as u32 + 100);
        }
        assert_eq!(t.len(), 11);
        // The twelfth key fills the table: the next call starts it over.
        assert!(t.find(&[99, 0]).1);
        assert_eq!(t.len(), 12);
        let (s, new) = t.find(&[3, 21]);
        assert!(new);
        assert_eq!(s.value, 0);
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn clear_forgets_across_a_generation_wrap() {
        let mut t: Table<Cell, 2, 8> = Table::new();
        // Filled in generation 1, which comes back after the wrap.
        t.find(&[1, 2]).0.value = 5;
        t.generation = u32::MAX;
        t.clear();
        assert_eq!(t.generation, 1);
        assert!(t.is_empty());
        assert!(t.find(&[1, 2]).1);
    }
}
