//! The seeded wall: a portable random number generator, the shuffle, the dice and the wall
//! break, and the two ends tiles are drawn from.
//!
//! # Randomness
//!
//! [`Rng`] is xoshiro256** (Blackman and Vigna) seeded through SplitMix64, written out here
//! so that the same seed gives the same wall on every machine, platform and crate version.
//! [`Rng::below`] draws an unbiased integer by rejection (no floating point), and
//! [`Wall::new`] shuffles with Fisher-Yates from the last position down.
//!
//! # Linear model (docs/rules/gb.md §3-§4, G-1; docs/rules/classic.md §3)
//!
//! The shuffled wall is one array `W[0..n]` in draw order (`n` = 144 with flowers, 136
//! without). Stack `k` is (upper `W[2k]`, lower `W[2k + 1]`). The deal takes `W[0..=52]`;
//! normal draws continue from the head (`W[53]`, `W[54]`, ...). Replacement draws (after a
//! kong or a flower) come from the tail, the upper tile of the last standing stack first:
//! `W[n-2]`, `W[n-1]`, `W[n-4]`, `W[n-3]`, ... (C-4). The two ends may meet inside one
//! stack; a position is never drawn twice. By default there is no dead wall: every tile is
//! drawn. A wall may instead keep a reserve ([`Wall::set_reserved`]: the hand is exhausted
//! while that many tiles still stand, wherever the two ends meet) and hold positions that are
//! never drawn ([`Wall::block`], e.g. a Huainan 宝 indicator set aside face up). Such tiles
//! still stand in the wall ([`Wall::standing`]) but are not counted by [`Wall::remaining`].
//!
//! The dice are thrown after the shuffle, from the same generator, and recorded with the
//! wall break they select ([`Dice`]). In the linear model they do not change which tile is
//! drawn when (the start point is uniformly random either way); they are kept for display
//! and replay.

use crate::tile::Tile;

/// SplitMix64: one step of Steele, Lea and Flood's generator. Used to seed [`Rng`] and to
/// derive independent seeds (per hand of a match) from one seed.
#[inline]
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Derives the seed of item `index` (a hand of a match, a shard of a simulation) from a
/// parent seed: SplitMix64 started at `parent + index * golden ratio`.
pub fn derive_seed(parent: u64, index: u64) -> u64 {
    let mut s = parent ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
    splitmix64(&mut s)
}

/// `ZONE[m]`: the bound below which [`Rng::below`]`(m)` accepts a draw,
/// `u64::MAX - u64::MAX % m`, for the ranges a hand uses (read, not divided for).
const ZONE: [u64; MAX_TILES + 1] = {
    let mut z = [0u64; MAX_TILES + 1];
    let mut m = 1;
    while m <= MAX_TILES {
        z[m] = u64::MAX - (u64::MAX % m as u64);
        m += 1;
    }
    z
};

/// xoshiro256**: a small, fast, portable generator. Same seed, same stream everywhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose state is filled from `seed` by SplitMix64 (never all zero).
    pub fn new(seed: u64) -> Self {
        let mut sm = seed;
        let s = [
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
        ];
        Rng { s }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (`n` > 0), by rejection: draws below the largest
    /// multiple of `n` are reduced modulo `n`, the rest are redrawn.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let n = n.max(1);
        let zone = match ZONE.get(n as usize) {
            Some(&z) => z,
            None => u64::MAX - (u64::MAX % n),
        };
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// One six-sided die, 1-6.
    #[inline]
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }
}

/// How the wall is broken (G-1, C-3): one throw by the dealer, or the 1998 two-throw
/// procedure where the first total picks a second thrower.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakThrow {
    /// The dealer throws two dice; their total picks the wall and the stack count.
    Single,
    /// The dealer throws `s1`, which picks the second thrower; that player throws `s2`;
    /// count `s1 + s2` stacks in the second thrower's wall.
    Double,
}

/// The dice thrown to break the wall and the break they select.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Dice {
    /// The dice in throw order (two or four; unused entries are 0).
    pub dice: [u8; 4],
    /// Whose wall is broken, counted counter-clockwise from the dealer (0 = the dealer).
    pub break_seat: u8,
    /// How many stacks are counted from the right-hand end of that wall (may run past its
    /// end into the next wall clockwise). Dealing starts at the next stack.
    pub break_stack: u8,
}

impl Dice {
    /// The number of dice thrown (2 or 4).
    pub fn count(&self) -> usize {
        self.dice.iter().filter(|&&d| d > 0).count()
    }
    /// The dice actually thrown.
    pub fn thrown(&self) -> &[u8] {
        &self.dice[..self.count()]
    }
}

/// Tiles dealt by [`Wall::deal`] and drawn at the start: `W[0..=52]`.
pub const DEALT: usize = 53;

/// The most tiles a wall can hold (gb, with flowers).
pub const MAX_TILES: usize = 144;

/// A shuffled wall with a head (normal draws) and a tail (replacement draws).
#[derive(Debug, Clone)]
pub struct Wall {
    tiles: [Tile; MAX_TILES],
    len: u8,
    /// Next position of the head sequence (0, 1, 2, ...).
    head: u8,
    /// Steps taken along the tail sequence (n-2, n-1, n-4, n-3, ...).
    tail: u8,
    /// Drawn positions (a bit set over `0..len`).
    taken: [u64; 3],
    /// Positions never drawn (a bit set over `0..len`, disjoint from `taken`).
    blocked: [u64; 3],
    /// Tiles still standing, blocked ones included.
    remaining: u8,
    /// Blocked positions (all still standing).
    n_blocked: u8,
    /// Tiles that are never drawn from the end of the wall.
    reserved: u8,
    /// [`Wall::remaining`]: `remaining` less the blocked and reserved tiles (at least 0),
    /// kept as they change.
    drawable: u8,
    /// Private walls: seat `i` (counted from the dealer) deals and draws only from the
    /// `i`-th quarter of the order ([`Wall::make_private`]).
    private: bool,
    /// Private walls: tiles taken so far from each quarter.
    quarter_taken: [u8; 4],
    dice: Dice,
    rng: Rng,
}

impl Wall {
    /// Shuffles a wall from `seed`: 136 tiles, plus the eight flowers when `flowers`.
    /// Then throws the dice for the break (`throw`), from the same generator.
    pub fn new(seed: u64, flowers: bool, throw: BreakThrow) -> Self {
        // Four copies of each kind in order, then the eight flowers (copied, not built).
        const UNSHUFFLED: [Tile; MAX_TILES] = {
            let mut tiles = [0 as Tile; MAX_TILES];
            let mut n = 0;
            while n < MAX_TILES {
                tiles[n] = if n < 136 {
                    (n / 4) as Tile
                } else {
                    (n - 102) as Tile
                };
                n += 1;
            }
            tiles
        };
        let mut tiles = UNSHUFFLED;
        let n = if flowers { MAX_TILES } else { 136 };
        Self::shuffled(&mut tiles, n, seed, throw)
    }

    /// Builds a wall whose draw order is exactly `order` (tests, scenarios, replays of an
    /// externally shuffled wall). The dice are thrown from `seed`. Fails unless `order` is
    /// a full set of 136 tiles (or 144 with the eight flowers).
    pub fn from_order(order: &[Tile], seed: u64, throw: BreakThrow) -> crate::MjResult<Self> {
        let mut counts = [0u8; 42];
        for &t in order {
            if !crate::tile::is_valid(t) {
                return Err(crate::MjError::hand(format!(
                    "tile code {t} is out of range (0-41)"
                )));
            }
            counts[t as usize] += 1;
        }
        let with_flowers = order.len() == 144;
        let ok = (order.len() == 136 || with_flowers)
            && counts[..34].iter().all(|&c| c == 4)
            && counts[34..].iter().all(|&c| c == u8::from(with_flowers));
        if !ok {
            return Err(crate::MjError::hand(format!(
                "a wall is 136 tiles (four of each kind) or 144 with the eight flowers; got {} tiles",
                order.len()
            )));
        }
        let mut tiles = [0 as Tile; MAX_TILES];
        tiles[..order.len()].copy_from_slice(order);
        let mut rng = Rng::new(seed);
        let dice = throw_dice(&mut rng, throw);
        Ok(Wall {
            tiles,
            len: order.len() as u8,
            head: 0,
            tail: 0,
            taken: [0; 3],
            blocked: [0; 3],
            remaining: order.len() as u8,
            n_blocked: 0,
            reserved: 0,
            drawable: order.len() as u8,
            private: false,
            quarter_taken: [0; 4],
            dice,
            rng,
        })
    }

    /// Builds a wall that deals the given opening hands and then draws `head` from the
    /// head and `tail` (replacements) from the tail, in that order; the other tiles fill
    /// the rest of the wall in code order (leftover flowers in the middle). `hands[i]` is the hand of the seat `i` places
    /// after the dealer (14 tiles for the dealer, 13 for the others; flowers allowed when
    /// `flowers`). For scenarios and tests. Fails on a wrong hand size, a fifth copy, a
    /// flower in a wall without flowers, or more tiles than the wall holds.
    pub fn arranged(
        hands: [&[Tile]; 4],
        head: &[Tile],
        tail: &[Tile],
        flowers: bool,
        seed: u64,
        throw: BreakThrow,
    ) -> crate::MjResult<Self> {
        let n = if flowers { 144 } else { 136 };
        let mut left = [0u8; 42];
        for c in left.iter_mut().take(34) {
            *c = 4;
        }
        if flowers {
            for c in left.iter_mut().skip(34) {
                *c = 1;
            }
        }
        let mut take = |t: Tile| -> crate::MjResult<Tile> {
            if !crate::tile::is_valid(t) {
                return Err(crate::MjError::hand(format!(
                    "tile code {t} is out of range (0-41)"
                )));
            }
            if left[t as usize] == 0 {
                return Err(crate::MjError::hand(format!(
                    "too many copies of {} for this wall",
                    crate::tile::name(t)
                )));
            }
            left[t as usize] -= 1;
            Ok(t)
        };
        let mut order = [u8::MAX; MAX_TILES];
        for (i, h) in hands.iter().enumerate() {
            let want = if i == 0 { 14 } else { 13 };
            if h.len() != want {
                return Err(crate::MjError::hand(format!(
                    "the hand {i} seats after the dealer needs {want} tiles, got {}",
                    h.len()
                )));
            }
            for r in 0..3 {
                for k in 0..4 {
                    order[r * 16 + i * 4 + k] = take(h[r * 4 + k])?;
                }
            }
            order[48 + i] = take(h[12])?;
        }
        order[52] = take(hands[0][13])?;
        if DEALT + head.len() + tail.len() > n {
            return Err(crate::MjError::hand(
                "more head and tail draws than the wall holds",
            ));
        }
        for (k, &t) in head.iter().enumerate() {
            order[DEALT + k] = take(t)?;
        }
        for (k, &t) in tail.iter().enumerate() {
            let stack = n / 2 - 1 - k / 2;
            order[2 * stack + k % 2] = take(t)?;
        }
        // Leftover tiles in code order, with any leftover flowers in the middle, so that
        // the draws right after the arranged ones (at either end) are not flowers.
        let mut rest: Vec<Tile> = (0..34u8)
            .flat_map(|t| std::iter::repeat(t).take(left[t as usize] as usize))
            .collect();
        let flowers_left: Vec<Tile> = (34..42u8).filter(|&f| left[f as usize] > 0).collect();
        let mid = rest.len() / 2;
        rest.splice(mid..mid, flowers_left);
        let mut fill = rest.into_iter();
        for slot in order[..n].iter_mut() {
            if *slot == u8::MAX {
                *slot = fill.next().unwrap_or(0);
            }
        }
        Self::from_order(&order[..n], seed, throw)
    }

    /// A wall of `len` tiles (136, or 144 with flowers) of which only `rest` is still
    /// standing: the head draws `rest` in the order given and replacement draws take it
    /// from the other end, as in a wall drawn down to `rest.len()` tiles. The drawn
    /// positions hold no tiles ([`Wall::order`] shows them as `0`). Used to rebuild a hand
    /// from one seat's view with the unseen tiles drawn at random (search). Fails when
    /// `len` is not a wall size or `rest` is longer than it.
    pub fn remainder(len: usize, rest: &[Tile], dice: Dice) -> crate::MjResult<Self> {
        if len != 136 && len != 144 {
            return Err(crate::MjError::hand(format!(
                "a wall is 136 or 144 tiles, not {len}"
            )));
        }
        if rest.len() > len {
            return Err(crate::MjError::hand(format!(
                "{} tiles left in a wall of {len}",
                rest.len()
            )));
        }
        if let Some(&t) = rest.iter().find(|&&t| !crate::tile::is_valid(t)) {
            return Err(crate::MjError::hand(format!(
                "tile code {t} is out of range (0-41)"
            )));
        }
        let drawn = len - rest.len();
        let mut tiles = [0 as Tile; MAX_TILES];
        tiles[drawn..len].copy_from_slice(rest);
        let mut taken = [0u64; 3];
        for i in 0..drawn {
            taken[i / 64] |= 1 << (i % 64);
        }
        Ok(Wall {
            tiles,
            len: len as u8,
            head: drawn as u8,
            tail: 0,
            taken,
            blocked: [0; 3],
            remaining: rest.len() as u8,
            n_blocked: 0,
            reserved: 0,
            drawable: rest.len() as u8,
            private: false,
            quarter_taken: [0; 4],
            dice,
            rng: Rng::new(len as u64 ^ rest.len() as u64),
        })
    }

    fn shuffled(tiles: &mut [Tile; MAX_TILES], n: usize, seed: u64, throw: BreakThrow) -> Self {
        let mut rng = Rng::new(seed);
        // Fisher-Yates: position i swaps with a uniform position in 0..=i, drawn as
        // `rng.below(i + 1)` draws it.
        for i in (1..n.min(MAX_TILES)).rev() {
            let m = i as u64 + 1;
            let j = loop {
                let x = rng.next_u64();
                if x < ZONE[i + 1] {
                    break (x % m) as usize;
                }
            };
            tiles.swap(i, j);
        }
        let dice = throw_dice(&mut rng, throw);
        Wall {
            tiles: *tiles,
            len: n as u8,
            head: 0,
            tail: 0,
            taken: [0; 3],
            blocked: [0; 3],
            remaining: n as u8,
            n_blocked: 0,
            reserved: 0,
            drawable: n as u8,
            private: false,
            quarter_taken: [0; 4],
            dice,
            rng,
        }
    }

    /// Total tiles in the wall (136 or 144).
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True when the wall was built empty (never the case for a real wall).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Tiles that can still be drawn from either end: the standing tiles less the blocked
    /// ones and the reserve. The hand is exhausted when this reaches 0.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.drawable as usize
    }

    /// Sets [`Wall::drawable`] from the standing, blocked and reserved tiles.
    fn recount(&mut self) {
        self.drawable = (self.remaining as usize)
            .saturating_sub(self.n_blocked as usize + self.reserved as usize)
            as u8;
    }

    /// Tiles still standing in the wall, the blocked ones and the reserve included.
    #[inline]
    pub fn standing(&self) -> usize {
        self.remaining as usize
    }

    /// Keeps the last `n` standing tiles out of play: every draw, from the head or the tail,
    /// is refused once only `n` drawable tiles would be left (a reserved tail, 留牌).
    pub fn set_reserved(&mut self, n: u8) {
        self.reserved = n;
        self.recount();
    }

    /// The reserve set with [`Wall::set_reserved`].
    pub fn reserved(&self) -> usize {
        self.reserved as usize
    }

    /// Takes position `i` out of play without drawing it: it stays in the wall (and in
    /// [`Wall::order`]) but neither end ever draws it. False if `i` is past the end or
    /// already drawn or blocked.
    pub fn block(&mut self, i: usize) -> bool {
        if i >= self.len as usize || self.is_taken(i) || self.is_blocked(i) {
            return false;
        }
        self.blocked[i / 64] |= 1 << (i % 64);
        self.n_blocked += 1;
        self.recount();
        true
    }

    /// True if position `i` is blocked ([`Wall::block`]).
    #[inline]
    pub fn is_blocked(&self, i: usize) -> bool {
        self.blocked[i / 64] >> (i % 64) & 1 == 1
    }

    /// The whole wall in draw order, drawn tiles included.
    pub fn order(&self) -> &[Tile] {
        &self.tiles[..self.len as usize]
    }

    /// The dice thrown for the break.
    pub fn dice(&self) -> Dice {
        self.dice
    }

    /// The tile at linear position `i` (drawn or not); `None` past the end.
    pub fn peek(&self, i: usize) -> Option<Tile> {
        (i < self.len as usize).then(|| self.tiles[i])
    }

    /// True if position `i` has been drawn.
    #[inline]
    pub fn is_taken(&self, i: usize) -> bool {
        self.taken[i / 64] >> (i % 64) & 1 == 1
    }

    #[inline]
    fn take(&mut self, i: usize) -> Tile {
        self.taken[i / 64] |= 1 << (i % 64);
        self.remaining -= 1;
        // One standing tile fewer: one drawable fewer, unless none was.
        self.drawable = self.drawable.saturating_sub(1);
        self.tiles[i]
    }

    /// Throws one more pair of dice from the wall's generator (e.g. for an indicator
    /// tile); returns the total, 2-12.
    pub fn throw_pair(&mut self) -> u8 {
        self.rng.die() + self.rng.die()
    }

    /// Deals the opening hands (docs/rules/gb.md §4): three rounds of four tiles each, dealer
    /// first, then the dealer's jump. Seat `i` here is counted from the dealer. Returns
    /// the hands; the dealer's has 14 tiles, the others 13. Takes `W[0..=52]`.
    pub fn deal(&mut self) -> [[Tile; 14]; 4] {
        let mut hands = [[0 as Tile; 14]; 4];
        if self.private {
            // Each seat deals its own hand from the front of its quarter.
            for (i, hand) in hands.iter_mut().enumerate() {
                let n = if i == 0 { 14 } else { 13 };
                for (k, slot) in hand.iter_mut().take(n).enumerate() {
                    *slot = self.take(i * self.quarter() + k);
                }
                self.quarter_taken[i] = n as u8;
            }
            return hands;
        }
        let w = &self.tiles;
        for round in 0..3 {
            for (i, hand) in hands.iter_mut().enumerate() {
                let at = 16 * round + 4 * i;
                hand[4 * round..4 * round + 4].copy_from_slice(&w[at..at + 4]);
            }
        }
        // The jump: the dealer takes the upper tiles of the 1st and 3rd next stacks
        // (W[48], W[52]); the others take W[49], W[50], W[51].
        hands[0][12] = w[48];
        hands[1][12] = w[49];
        hands[2][12] = w[50];
        hands[3][12] = w[51];
        hands[0][13] = w[52];
        // Every position of W[0..=52] taken at once, as `take` takes them one by one.
        self.taken[0] |= (1 << DEALT) - 1;
        self.remaining -= DEALT as u8;
        self.drawable = self.drawable.saturating_sub(DEALT as u8);
        self.head = DEALT as u8;
        hands
    }

    /// Splits the wall into four private walls of a quarter each (Botzone's 34 without
    /// flowers): seat `i`, counted from the dealer, is dealt from and draws (normal draws
    /// and replacements alike) only from the `i`-th quarter of [`Wall::order`], in order.
    /// Call before [`Wall::deal`]; the reserve and blocked positions do not apply.
    pub fn make_private(&mut self) {
        self.private = true;
    }

    /// True for private walls ([`Wall::make_private`]).
    #[inline]
    pub fn is_private(&self) -> bool {
        self.private
    }

    #[inline]
    fn quarter(&self) -> usize {
        self.len as usize / 4
    }

    /// Private walls: tiles left in the wall of seat `i` (counted from the dealer).
    #[inline]
    pub fn remaining_in(&self, i: u8) -> usize {
        self.quarter() - self.quarter_taken[i as usize & 3] as usize
    }

    /// Draws for seat `i` (counted from the dealer): from its own wall when private,
    /// otherwise from the tail when `tail` (a replacement) and the head when not. `None`
    /// when that wall has no drawable tile left. Always inlined, with [`Wall::draw`]: the
    /// round draws once a turn, and the call cost as much as the draw itself.
    #[inline(always)]
    pub fn draw_for_seat(&mut self, i: u8, tail: bool) -> Option<Tile> {
        if !self.private && !tail {
            // The common draw, kept inline.
            return self.draw();
        }
        self.draw_other(i, tail)
    }

    /// [`Wall::draw_for_seat`] from the tail or a private wall.
    #[inline(never)]
    fn draw_other(&mut self, i: u8, tail: bool) -> Option<Tile> {
        if !self.private {
            return if tail { self.draw_tail() } else { self.draw() };
        }
        let i = i as usize & 3;
        if self.quarter_taken[i] as usize >= self.quarter() {
            return None;
        }
        let pos = i * self.quarter() + self.quarter_taken[i] as usize;
        self.quarter_taken[i] += 1;
        Some(self.take(pos))
    }

    /// Draws from the head (a normal draw); `None` when no drawable tile is left.
    #[inline(always)]
    pub fn draw(&mut self) -> Option<Tile> {
        if self.remaining() == 0 {
            return None;
        }
        // Drawn or blocked positions at the head are passed over (one test of both sets).
        while {
            let h = self.head as usize;
            (self.taken[h / 64] | self.blocked[h / 64]) >> (h % 64) & 1 == 1
        } {
            self.head += 1;
        }
        let i = self.head as usize;
        self.head += 1;
        Some(self.take(i))
    }

    /// The linear position of step `k` of the tail sequence.
    #[inline]
    fn tail_pos(&self, k: usize) -> usize {
        let stack = self.len as usize / 2 - 1 - k / 2;
        2 * stack + k % 2
    }

    /// Draws from the tail (a kong or flower replacement); `None` when no drawable tile is
    /// left.
    pub fn draw_tail(&mut self) -> Option<Tile> {
        if self.remaining() == 0 {
            return None;
        }
        loop {
            let i = self.tail_pos(self.tail as usize);
            self.tail += 1;
            if !self.is_taken(i) && !self.is_blocked(i) {
                return Some(self.take(i));
            }
        }
    }
}

fn throw_dice(rng: &mut Rng, throw: BreakThrow) -> Dice {
    let (a, b) = (rng.die(), rng.die());
    let s1 = a + b;
    match throw {
        BreakThrow::Single => Dice {
            dice: [a, b, 0, 0],
            break_seat: (s1 - 1) % 4,
            break_stack: s1,
        },
        BreakThrow::Double => {
            let (c, d) = (rng.die(), rng.die());
            Dice {
                dice: [a, b, c, d],
                break_seat: (s1 - 1) % 4,
                break_stack: s1 + c + d,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_walls_deal_and_draw_from_each_quarter() {
        let mut w = Wall::new(9, false, BreakThrow::Single);
        w.make_private();
        let order = w.order().to_vec();
        let hands = w.deal();
        assert_eq!(hands[0][..14], order[..14]);
        assert_eq!(hands[2][..13], order[68..81]);
        assert_eq!(w.remaining_in(0), 20);
        assert_eq!(w.remaining_in(3), 21);
        // Seat 3 drains its own wall; the others keep theirs.
        for k in 0..21 {
            assert_eq!(w.draw_for_seat(3, k % 2 == 0), Some(order[102 + 13 + k]));
        }
        assert_eq!(w.draw_for_seat(3, false), None);
        assert_eq!(w.remaining_in(3), 0);
        assert_eq!(w.draw_for_seat(1, true), Some(order[34 + 13]));
        assert_eq!(w.remaining(), 136 - 53 - 22);
    }

    #[test]
    fn rng_is_fixed_across_platforms() {
        // SplitMix64 from 0 gives the published first output.
        let mut s = 0u64;
        assert_eq!(splitmix64(&mut s), 0xE220_A839_7B1D_CDAF);
        let mut r = Rng::new(42);
        let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        let mut r2 = Rng::new(42);
        assert_eq!(first, (0..3).map(|_| r2.next_u64()).collect::<Vec<_>>());
        assert_ne!(Rng::new(43).next_u64(), first[0]);
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut r = Rng::new(7);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            let d = r.die();
            assert!((1..=6).contains(&d));
            seen[d as usize - 1] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
    }

    #[test]
    fn wall_is_a_permutation_and_seeded() {
        let w = Wall::new(5, true, BreakThrow::Single);
        assert_eq!(w.len(), 144);
        let mut c = [0u8; 42];
        for &t in w.order() {
            c[t as usize] += 1;
        }
        assert!(c[..34].iter().all(|&x| x == 4) && c[34..].iter().all(|&x| x == 1));
        assert_eq!(Wall::new(5, true, BreakThrow::Single).order(), w.order());
        assert_ne!(Wall::new(6, true, BreakThrow::Single).order(), w.order());
        assert_eq!(Wall::new(5, false, BreakThrow::Double).len(), 136);
    }

    #[test]
    fn deal_then_head_and_tail_meet_without_repeats() {
        let mut w = Wall::new(11, false, BreakThrow::Double);
        let hands = w.deal();
        assert_eq!(w.remaining(), 136 - 53);
        assert_eq!(hands[0][13], w.order()[52]);
        assert_eq!(hands[1][12], w.order()[49]);
        let mut drawn = Vec::new();
        let mut k = 0;
        while w.remaining() > 0 {
            let t = if k % 3 == 0 { w.draw_tail() } else { w.draw() };
            drawn.push(t.unwrap());
            k += 1;
        }
        assert_eq!(drawn.len(), 83);
        assert!(w.draw().is_none() && w.draw_tail().is_none());
        assert!((0..136).all(|i| w.is_taken(i)));
        // The tail order: upper of the last stack first.
        let mut w2 = Wall::new(11, false, BreakThrow::Double);
        w2.deal();
        assert_eq!(w2.draw_tail(), Some(w2.order()[134]));
        assert_eq!(w2.draw_tail(), Some(w2.order()[135]));
        assert_eq!(w2.draw_tail(), Some(w2.order()[132]));
        assert_eq!(w2.draw(), Some(w2.order()[53]));
    }

    #[test]
    fn dice_record_the_break() {
        let w = Wall::new(3, true, BreakThrow::Single);
        let d = w.dice();
        assert_eq!(d.count(), 2);
        assert_eq!(d.break_stack, d.dice[0] + d.dice[1]);
        assert_eq!(d.break_seat, (d.break_stack - 1) % 4);
        let w2 = Wall::new(3, false, BreakThrow::Double);
        assert_eq!(w2.dice().count(), 4);
        assert_eq!(
            w2.dice().break_stack as u32,
            w2.dice().dice.iter().map(|&x| x as u32).sum::<u32>()
        );
    }

    #[test]
    fn from_order_checks_the_set() {
        let w = Wall::new(1, false, BreakThrow::Single);
        let again = Wall::from_order(w.order(), 1, BreakThrow::Single).unwrap();
        assert_eq!(again.order(), w.order());
        assert!(Wall::from_order(&w.order()[..135], 1, BreakThrow::Single).is_err());
    }

    #[test]
    fn remainder_draws_the_rest_from_both_ends() {
        let rest = [5u8, 6, 7, 8, 9, 10];
        let mut w = Wall::remainder(136, &rest, Dice::default()).unwrap();
        assert_eq!(w.remaining(), 6);
        assert_eq!(w.draw(), Some(5));
        // The tail takes the upper tile of the last stack first.
        assert_eq!(w.draw_tail(), Some(9));
        assert_eq!(w.draw_tail(), Some(10));
        assert_eq!(w.draw(), Some(6));
        assert_eq!(w.draw_tail(), Some(7));
        assert_eq!(w.draw(), Some(8));
        assert_eq!((w.draw(), w.draw_tail(), w.remaining()), (None, None, 0));
        assert!(Wall::remainder(100, &rest, Dice::default()).is_err());
        assert!(Wall::remainder(136, &[50], Dice::default()).is_err());
    }

    #[test]
    fn reserve_and_blocked_positions_are_never_drawn() {
        let mut w = Wall::new(4, false, BreakThrow::Single);
        w.deal();
        w.set_reserved(14);
        assert!(w.block(134));
        assert!(!w.block(134) && !w.block(0) && !w.block(136));
        assert_eq!((w.remaining(), w.standing()), (136 - 53 - 14 - 1, 136 - 53));
        // The tail skips the blocked upper tile of the last stack.
        assert_eq!(w.draw_tail(), Some(w.order()[135]));
        let mut n = 1;
        while w.draw().is_some() {
            n += 1;
        }
        assert_eq!(n, 136 - 53 - 14 - 1);
        assert_eq!((w.remaining(), w.standing()), (0, 15));
        assert!(w.draw_tail().is_none());
        assert!(!w.is_taken(134) && w.is_blocked(134));
    }
}
