//! The fixed hash table behind the strong policy's memos (discards of full hands, shapes
//! and waits of waiting hands), and the packed hand key they share.
//!
//! Each memo keeps `N` slots (a power of two) allocated once and finds a key by linear
//! probing from its hash. Which slots are filled is a bitmap beside them (`N / 8`
//! bytes, which stay in the cache), so that a new key is placed without reading its
//! slot, most often a cache line no lookup has touched for a while; the table forgets
//! everything at once by clearing the bitmap. It starts over when three quarters full,
//! so a probe always ends at a free slot.
//!
//! Keys are small ([`HandKey`]: 16 bytes for 34 counts and the melds) so that a slot of
//! the discard or shape memo takes half a cache line: the four bots' memos are read all
//! over at random, and the fewer lines they span the more of them stay in the caches.

use crate::shanten::swar;
use crate::tile::Counts;

/// A hand's 34 counts (0 to 4), three bits each (kind `k` at bits `3k..3k + 3`), and its
/// number of melds (0 to 4) at bits 102 to 104.
///
/// A tile more or less of one kind is one addition ([`HandKey::plus`],
/// [`HandKey::minus`]), so that the lookahead's hands one draw or discard apart are keyed
/// without packing their counts again. Kept as two words (low word first), so that it
/// needs no more than their alignment.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HandKey([u64; 2]);

/// Bit of [`HandKey`] where the number of melds starts.
const MELDS_AT: u32 = 102;

/// Packs eight counts below 8, the bytes of `w`, three bits each into the low 24 bits.
#[inline(always)]
fn pack8(w: u64) -> u64 {
    // Pairs of bytes into six bits, pairs of those into twelve, then the two halves.
    let x = w & 0x0707_0707_0707_0707;
    let x = (x | x >> 5) & 0x003F_003F_003F_003F;
    let x = (x | x >> 10) & 0x0000_0FFF_0000_0FFF;
    (x | x >> 20) & 0x00FF_FFFF
}

impl HandKey {
    /// The key of no tiles and no melds (what an unfilled slot holds).
    pub const EMPTY: HandKey = HandKey([0; 2]);

    /// The key of the bits `b`.
    #[inline(always)]
    const fn from_bits(b: u128) -> HandKey {
        HandKey([b as u64, (b >> 64) as u64])
    }

    /// The key's bits.
    #[inline(always)]
    const fn bits(self) -> u128 {
        self.0[0] as u128 | (self.0[1] as u128) << 64
    }

    /// The key of `hand` beside `n_melds` melds. Counts above 7 (never in a hand) would
    /// be cut to their low three bits.
    #[inline]
    pub fn of(hand: &Counts, n_melds: u8) -> HandKey {
        debug_assert!(hand.iter().all(|&c| c <= 4) && n_melds <= 4);
        let mut k = 0u128;
        for i in 0..4 {
            k |= (pack8(swar::word(hand, 8 * i)) as u128) << (24 * i);
        }
        k |= ((hand[32] & 7) as u128) << 96 | ((hand[33] & 7) as u128) << 99;
        HandKey::from_bits(k | ((n_melds & 7) as u128) << MELDS_AT)
    }

    /// The key of the hand with one more tile of kind `k` (held at most 4 times after).
    #[inline(always)]
    pub fn plus(self, k: usize) -> HandKey {
        debug_assert!(self.count(k) < 4);
        HandKey::from_bits(self.bits() + (1 << (3 * k)))
    }

    /// The key of the hand with one tile less of kind `k` (held).
    #[inline(always)]
    pub fn minus(self, k: usize) -> HandKey {
        debug_assert!(self.count(k) > 0);
        HandKey::from_bits(self.bits() - (1 << (3 * k)))
    }

    /// The key's two words (low word first).
    #[inline(always)]
    pub fn words(self) -> [u64; 2] {
        self.0
    }

    /// Copies of kind `k`.
    pub fn count(self, k: usize) -> u8 {
        (self.bits() >> (3 * k)) as u8 & 7
    }

    /// Number of melds.
    pub fn n_melds(self) -> u8 {
        (self.bits() >> MELDS_AT) as u8 & 7
    }

    /// A hash of the key's two words, `extra` mixed in: the two halves of the product of
    /// the words (each offset by a constant), so that every bit of the key reaches the
    /// low bits a table indexes by.
    #[inline(always)]
    fn hash_with(self, extra: u64) -> u64 {
        let a = self.0[0] ^ 0x9E37_79B9_7F4A_7C15;
        let b = self.0[1] ^ extra ^ 0xD6E8_FEB8_6659_FD93;
        let m = a as u128 * b as u128;
        m as u64 ^ (m >> 64) as u64
    }
}

/// A memo key.
pub trait Key: Copy + PartialEq {
    /// A hash of the key.
    fn hash(self) -> u64;
}

impl Key for HandKey {
    #[inline(always)]
    fn hash(self) -> u64 {
        self.hash_with(0)
    }
}

/// A [`HandKey`] with one more word of facts (such as the seat's melds and winds) that
/// tell hands of the same tiles apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FactsKey {
    /// The hand.
    pub hand: HandKey,
    /// The facts.
    pub facts: u64,
}

impl Key for FactsKey {
    #[inline(always)]
    fn hash(self) -> u64 {
        self.hand.hash_with(self.facts)
    }
}

/// A slot of a [`Table`]: its key and what the memo keeps for it.
pub trait Slot: Copy {
    /// The key type.
    type Key: Key;
    /// The slot the table starts with (never read before it is filled).
    const EMPTY: Self;
    /// The key the slot was filled for.
    fn key(&self) -> Self::Key;
    /// A new slot for `key`, knowing nothing else yet.
    fn fresh(key: Self::Key) -> Self;
}

/// `N` slots of `S`; see the module docs.
#[derive(Clone)]
pub struct Table<S, const N: usize> {
    slots: Box<[S]>,
    /// Bit `i % 64` of word `i / 64` is set when slot `i` is filled.
    filled: Box<[u64]>,
    len: usize,
}

impl<S: Slot, const N: usize> Table<S, N> {
    /// The table starts over when it holds this many keys.
    pub const FULL: usize = N * 3 / 4;

    /// An empty table.
    pub fn new() -> Self {
        debug_assert!(N.is_power_of_two() && N >= 64);
        Table {
            slots: vec![S::EMPTY; N].into_boxed_slice(),
            filled: vec![0; N / 64].into_boxed_slice(),
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
        self.filled.fill(0);
    }

    /// The slot of `key` and whether it is new ([`Slot::fresh`]); starts over first when
    /// the table is full.
    #[inline]
    pub fn find(&mut self, key: S::Key) -> (&mut S, bool) {
        if self.len >= Self::FULL {
            self.clear();
        }
        let mut i = (key.hash() as usize) & (N - 1);
        loop {
            let bit = 1 << (i % 64);
            if self.filled[i / 64] & bit == 0 {
                self.filled[i / 64] |= bit;
                self.slots[i] = S::fresh(key);
                self.len += 1;
                return (&mut self.slots[i], true);
            }
            if self.slots[i].key() == key {
                return (&mut self.slots[i], false);
            }
            i = (i + 1) & (N - 1);
        }
    }
}

impl<S: Slot, const N: usize> Default for Table<S, N> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wall::Rng;

    #[derive(Clone, Copy)]
    struct Cell {
        key: FactsKey,
        value: u32,
    }

    impl Slot for Cell {
        type Key = FactsKey;
        const EMPTY: Cell = Cell {
            key: FactsKey {
                hand: HandKey::EMPTY,
                facts: 0,
            },
            value: 0,
        };
        fn key(&self) -> FactsKey {
            self.key
        }
        fn fresh(key: FactsKey) -> Cell {
            Cell { key, value: 0 }
        }
    }

    fn key(k: u64) -> FactsKey {
        let mut hand = [0u8; 34];
        hand[(k % 34) as usize] = (k % 5) as u8;
        FactsKey {
            hand: HandKey::of(&hand, (k % 3) as u8),
            facts: k * 7,
        }
    }

    #[test]
    fn keys_are_found_again_until_the_table_starts_over() {
        let mut t: Table<Cell, 64> = Table::new();
        for k in 0..47u64 {
            let (s, new) = t.find(key(k));
            assert!(new);
            s.value = k as u32 + 100;
        }
        for k in 0..47u64 {
            let (s, new) = t.find(key(k));
            assert!(!new);
            assert_eq!(s.value, k as u32 + 100);
        }
        assert_eq!(t.len(), 47);
        // The 48th key fills the table: the next call starts it over.
        assert!(t.find(key(99)).1);
        assert_eq!(t.len(), 48);
        let (s, new) = t.find(key(3));
        assert!(new);
        assert_eq!(s.value, 0);
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn clear_forgets_every_key() {
        let mut t: Table<Cell, 64> = Table::new();
        t.find(key(1)).0.value = 5;
        t.find(key(2)).0.value = 6;
        t.clear();
        assert!(t.is_empty());
        let (s, new) = t.find(key(2));
        assert!(new);
        assert_eq!(s.value, 0);
        assert!(t.find(key(1)).1);
        assert!(!t.find(key(2)).1);
    }

    #[test]
    fn hand_keys_pack_every_count_and_step_by_one_tile() {
        let mut rng = Rng::new(0x4A4D);
        for round in 0..2000 {
            let mut hand = [0u8; 34];
            for c in hand.iter_mut() {
                *c = rng.below(5) as u8;
            }
            let n_melds = (round % 5) as u8;
            let k = HandKey::of(&hand, n_melds);
            assert_eq!(k.n_melds(), n_melds);
            for (i, &c) in hand.iter().enumerate() {
                assert_eq!(k.count(i), c, "{hand:?} kind {i}");
            }
            let x = rng.below(34) as usize;
            if hand[x] < 4 {
                let mut more = hand;
                more[x] += 1;
                assert_eq!(k.plus(x), HandKey::of(&more, n_melds));
                assert_eq!(k.plus(x).minus(x), k);
            }
        }
    }
}
