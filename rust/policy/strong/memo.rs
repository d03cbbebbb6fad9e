//! The fixed hash table behind the strong policy's memos (discards of full hands, shapes
//! and waits of waiting hands), and the packed hand key they share.
//!
//! Each memo keeps `N` slots (a power of two) allocated once, finds a key by linear
//! probing from its hash, and forgets everything at once by moving to a new generation:
//! a slot's key carries the generation it was filled in (in bits no hand uses), and a
//! slot is filled only when that is the table's generation. The table starts over when
//! three quarters full, so a probe always ends at a free slot.
//!
//! Keys are small ([`HandKey`]: 16 bytes for 34 counts and the melds) so that a slot of
//! the discard or shape memo takes half a cache line: the four bots' memos are read all
//! over at random, and the fewer lines they span the more of them stay in the caches.

use crate::tile::Counts;

/// Generations run from 1 to `GENERATIONS - 1` (0 marks a slot never filled); then every
/// slot is emptied and they start again.
const GENERATIONS: u32 = 1 << 22;

/// A hand's 34 counts (0 to 4), three bits each (kind `k` at bits `3k..3k + 3`), and its
/// number of melds (0 to 4) at bits 102 to 104. Bits 105 and up hold the generation of
/// a table's slot and are zero otherwise.
///
/// A tile more or less of one kind is one addition ([`HandKey::plus`],
/// [`HandKey::minus`]), so that the lookahead's hands one draw or discard apart are keyed
/// without packing their counts again. Kept as two words (low word first), so that it
/// needs no more than their alignment.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HandKey([u64; 2]);

/// Bit of [`HandKey`] where the number of melds starts.
const MELDS_AT: u32 = 102;
/// Bit of [`HandKey`] where a slot's generation starts.
const GENERATION_AT: u32 = 105;

/// Packs eight counts below 8, the bytes of `w`, three bits each into the low 24 bits.
#[inline(always)]
fn pack8(w: u64) -> u64 {
    // Pairs of bytes into six bits, pairs of those into twelve, then the two halves.
    let x = w & 0x0707_0707_0707_0707;
    let x = (x | x >> 5) & 0x003F_003F_003F_003F;
    let x = (x | x >> 10) & 0x0000_0FFF_0000_0FFF;
    (x | x >> 20) & 0x00FF_FFFF
}

/// Counts `c[at..at + 8]` as the bytes of a word.
#[inline(always)]
fn bytes(c: &Counts, at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&c[at..at + 8]);
    u64::from_le_bytes(b)
}

impl HandKey {
    /// The key of no tiles and no melds, of generation 0: the key of an unfilled slot.
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
            k |= (pack8(bytes(hand, 8 * i)) as u128) << (24 * i);
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

/// A memo key with room for a table's generation (see the module docs).
pub trait Key: Copy + PartialEq {
    /// The key with `generation` (below [`GENERATIONS`]) in its spare bits, which are
    /// zero in a key to find.
    fn stamped(self, generation: u32) -> Self;
    /// The generation in its spare bits.
    fn generation(self) -> u32;
    /// A hash of a key to find.
    fn hash(self) -> u64;
}

impl Key for HandKey {
    #[inline(always)]
    fn stamped(self, generation: u32) -> HandKey {
        HandKey::from_bits(self.bits() | (generation as u128) << GENERATION_AT)
    }
    #[inline(always)]
    fn generation(self) -> u32 {
        (self.bits() >> GENERATION_AT) as u32
    }
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
    fn stamped(self, generation: u32) -> FactsKey {
        FactsKey {
            hand: self.hand.stamped(generation),
            facts: self.facts,
        }
    }
    #[inline(always)]
    fn generation(self) -> u32 {
        self.hand.generation()
    }
    #[inline(always)]
    fn hash(self) -> u64 {
        self.hand.hash_with(self.facts)
    }
}

/// A slot of a [`Table`]: its key (stamped with the generation it was filled in) and
/// what the memo keeps for it.
pub trait Slot: Copy {
    /// The key type.
    type Key: Key;
    /// An unfilled slot (its key of generation 0, which the table never uses).
    const EMPTY: Self;
    /// The key the slot was filled for, stamped.
    fn key(&self) -> Self::Key;
    /// A new slot for the stamped `key`, knowing nothing else yet.
    fn fresh(key: Self::Key) -> Self;
}

/// `N` slots of `S`; see the module docs.
#[derive(Clone)]
pub struct Table<S, const N: usize> {
    slots: Box<[S]>,
    generation: u32,
    len: usize,
}

impl<S: Slot, const N: usize> Table<S, N> {
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
        self.generation += 1;
        if self.generation == GENERATIONS {
            // Every slot's generation is stale again only after a full reset.
            self.slots.fill(S::EMPTY);
            self.generation = 1;
        }
    }

    /// The slot of `key` (its spare bits zero) and whether it is new ([`Slot::fresh`]);
    /// starts over first when the table is full.
    #[inline]
    pub fn find(&mut self, key: S::Key) -> (&mut S, bool) {
        if self.len >= Self::FULL {
            self.clear();
        }
        let stamped = key.stamped(self.generation);
        let mut i = (key.hash() as usize) & (N - 1);
        loop {
            let k = self.slots[i].key();
            if k == stamped {
                return (&mut self.slots[i], false);
            }
            if k.generation() != self.generation {
                self.slots[i] = S::fresh(stamped);
                self.len += 1;
                return (&mut self.slots[i], true);
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
        let mut t: Table<Cell, 16> = Table::new();
        for k in 0..11u64 {
            let (s, new) = t.find(key(k));
            assert!(new);
            s.value = k as u32 + 100;
        }
        for k in 0..11u64 {
            let (s, new) = t.find(key(k));
            assert!(!new);
            assert_eq!(s.value, k as u32 + 100);
        }
        assert_eq!(t.len(), 11);
        // The twelfth key fills the table: the next call starts it over.
        assert!(t.find(key(99)).1);
        assert_eq!(t.len(), 12);
        let (s, new) = t.find(key(3));
        assert!(new);
        assert_eq!(s.value, 0);
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn clear_forgets_across_a_generation_wrap() {
        let mut t: Table<Cell, 8> = Table::new();
        // Filled in generation 1, which comes back after the wrap.
        t.find(key(1)).0.value = 5;
        t.generation = GENERATIONS - 1;
        t.find(key(2)).0.value = 6;
        t.clear();
        assert_eq!(t.generation, 1);
        assert!(t.is_empty());
        assert!(t.find(key(1)).1);
        assert!(t.find(key(2)).1);
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
            assert_eq!(k.generation(), 0);
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
            // A full generation stamp leaves the hand and the melds as they are.
            let s = k.stamped(GENERATIONS - 1);
            assert_eq!(s.generation(), GENERATIONS - 1);
            assert_eq!((s.n_melds(), s.count(33)), (n_melds, hand[33]));
        }
    }
}
