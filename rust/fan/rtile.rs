//! The scoring-internal tile encoding: `suit << 4 | rank`, with suits 1 = 万, 2 = 条,
//! 3 = 筒, 4 = honors (东南西北中发白 = ranks 1-7).
//!
//! The reference calculator orders tiles this way (characters, bamboo, dots, honors), and
//! that order decides which decomposition wins a tie and which three sets of four are
//! read first. Scoring in the same order reproduces its choices exactly; rank arithmetic
//! never crosses a suit because suits are 16 apart.

use crate::tile::Tile;

/// A tile in the scoring encoding (0x11-0x19, 0x21-0x29, 0x31-0x39, 0x41-0x47).
pub type RTile = u8;
/// Count table indexed by [`RTile`].
pub type RTable = [u8; 0x50];
/// East in the scoring encoding.
pub const R_EAST: RTile = 0x41;

/// The 34 tiles in scoring order.
pub const ALL: [RTile; 34] = [
    0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, //
    0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, //
    0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, //
    0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
];

const FROM_CODE: [RTile; 34] = {
    let mut m = [0u8; 34];
    let mut t = 0;
    while t < 34 {
        m[t] = match t as u8 {
            0..=8 => 0x11 + t as u8,
            9..=17 => 0x31 + (t as u8 - 9),
            18..=26 => 0x21 + (t as u8 - 18),
            x => 0x41 + (x - 27),
        };
        t += 1;
    }
    m
};

/// Converts a tile code 0-33 to the scoring encoding (codes above 33 map to 白).
#[inline]
pub fn from_code(t: Tile) -> RTile {
    FROM_CODE[(t as usize).min(33)]
}

/// Converts back to a tile code 0-33.
#[inline]
pub fn to_code(r: RTile) -> Tile {
    let rank = r & 0xF;
    match r >> 4 {
        1 => rank - 1,
        2 => 18 + rank - 1,
        3 => 9 + rank - 1,
        _ => 27 + rank - 1,
    }
}

/// Suit 1-4.
#[inline]
pub const fn suit(r: RTile) -> u8 {
    r >> 4
}
/// Rank 1-9 (honors 1-7).
#[inline]
pub const fn rank(r: RTile) -> u8 {
    r & 0xF
}
/// True for 万, 条 and 筒.
#[inline]
pub const fn is_suited(r: RTile) -> bool {
    r < 0x40
}
/// True for winds and dragons.
#[inline]
pub const fn is_honor(r: RTile) -> bool {
    r > 0x40
}
/// True for 东南西北.
#[inline]
pub const fn is_wind(r: RTile) -> bool {
    r >= 0x41 && r < 0x45
}
/// True for 中发白.
#[inline]
pub const fn is_dragon(r: RTile) -> bool {
    r >= 0x45 && r < 0x48
}
/// True for suited 1 and 9.
#[inline]
pub const fn is_terminal(r: RTile) -> bool {
    is_suited(r) && (rank(r) == 1 || rank(r) == 9)
}
/// True for terminals and honors.
#[inline]
pub const fn is_terminal_or_honor(r: RTile) -> bool {
    is_terminal(r) || is_honor(r)
}
/// 绿一色 tiles: 2 3 4 6 8 条 and 发.
#[inline]
pub const fn is_green(r: RTile) -> bool {
    matches!(r, 0x22 | 0x23 | 0x24 | 0x26 | 0x28 | 0x46)
}
/// 推不倒 tiles: 1 2 3 4 5 8 9 筒, 2 4 5 6 8 9 条 and 白.
#[inline]
pub const fn is_reversible(r: RTile) -> bool {
    matches!(
        r,
        0x31..=0x35 | 0x38 | 0x39 | 0x22 | 0x24 | 0x25 | 0x26 | 0x28 | 0x29 | 0x47
    )
}

/// A set of tile kinds: bit `x` for the [`RTile`] `x`.
pub type Kinds = u128;

/// The kinds among `tiles`.
pub const fn kinds_of(tiles: &[RTile]) -> Kinds {
    let mut m = 0;
    let mut i = 0;
    while i < tiles.len() {
        m |= 1 << tiles[i];
        i += 1;
    }
    m
}

/// The kinds held in `table` (counts 0-7).
#[inline]
pub fn kinds_in(table: &RTable) -> Kinds {
    let mut kinds: Kinds = 0;
    for (i, word) in table.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes(word.try_into().expect("eight counts"));
        // Bit 0 of each byte: the count is not 0.
        let held = (w | w >> 1 | w >> 2) & 0x0101_0101_0101_0101;
        // The multiplication moves bit 0 of byte j to bit 56 + j, with no carries.
        let byte = held.wrapping_mul(0x0102_0408_1020_4080) >> 56;
        kinds |= Kinds::from(byte) << (8 * i);
    }
    kinds
}

/// How many kinds `table` holds four times (counts 0-4: 4 is the only one with bit 2).
#[inline]
pub fn fours_in(table: &RTable) -> u8 {
    table
        .chunks_exact(8)
        .map(|word| {
            let w = u64::from_le_bytes(word.try_into().expect("eight counts"));
            (w & 0x0404_0404_0404_0404).count_ones()
        })
        .sum::<u32>() as u8
}

/// The kinds held in `counts` (34 counts 0-4 in tile-code order) and how many of them are
/// held four times: [`kinds_in`] and [`fours_in`] of the same counts laid out by kind,
/// read eight counts a word from the shorter table.
#[inline]
pub fn kinds_and_fours_of_codes(counts: &[u8; 34]) -> (Kinds, u8) {
    let (mut held, mut fours) = (0u64, 0u64);
    for (i, &w) in count_words(counts).iter().enumerate() {
        // Bit 0 of each byte: the count is not 0; moved to bit 56 + j as in `kinds_in`.
        let h = (w | w >> 1 | w >> 2) & 0x0101_0101_0101_0101;
        held |= (h.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i);
        // A four is the only count with bit 2; their number gathered in the top byte.
        fours += ((w >> 2) & 0x0101_0101_0101_0101).wrapping_mul(0x0101_0101_0101_0101) >> 56;
    }
    (kinds_of_codes(held), fours as u8)
}

/// The 34 counts of `counts` (tile-code order), eight a word, the first count in the low
/// byte (the last word holds two).
#[inline(always)]
pub fn count_words(counts: &[u8; 34]) -> [u64; 5] {
    let mut words = [0u64; 5];
    for (w, c) in words.iter_mut().zip(counts.chunks(8)) {
        let mut b = [0u8; 8];
        b[..c.len()].copy_from_slice(c);
        *w = u64::from_le_bytes(b);
    }
    words
}

/// The kinds of the tile codes in `codes` (bit = tile code 0-33; higher bits ignored):
/// each code moved to its bit [`from_code`], a suit at a time.
#[inline]
pub fn kinds_of_codes(codes: u64) -> Kinds {
    // Tile codes: 万 0-8, 筒 9-17, 条 18-26, honors 27-33.
    Kinds::from(codes & 0x1FF) << 0x11
        | Kinds::from(codes >> 9 & 0x1FF) << 0x31
        | Kinds::from(codes >> 18 & 0x1FF) << 0x21
        | Kinds::from(codes >> 27 & 0x7F) << 0x41
}

/// The kinds for which the const predicate `$pred` holds.
macro_rules! kinds_where {
    ($pred:ident) => {{
        let mut m: Kinds = 0;
        let mut i = 0;
        while i < ALL.len() {
            if $pred(ALL[i]) {
                m |= 1 << ALL[i];
            }
            i += 1;
        }
        m
    }};
}

/// The nine kinds of suit `s` (1-3), or the seven honors (4).
#[inline]
pub const fn suit_kinds(s: u8) -> Kinds {
    (if s == 4 { 0x7F } else { 0x1FF }) << (s << 4 | 1)
}
/// 万, 条 and 筒.
pub const SUITED: Kinds = kinds_where!(is_suited);
/// Winds and dragons.
pub const HONORS: Kinds = suit_kinds(4);
/// 东南西北.
pub const WINDS: Kinds = kinds_where!(is_wind);
/// 中发白.
pub const DRAGONS: Kinds = kinds_where!(is_dragon);
/// Suited 1 and 9.
pub const TERMINALS: Kinds = kinds_where!(is_terminal);
/// 绿一色 tiles.
pub const GREEN: Kinds = kinds_where!(is_green);
/// 推不倒 tiles.
pub const REVERSIBLE: Kinds = kinds_where!(is_reversible);

/// The ranks (bit `r - 1` for rank `r`) of the suited kinds in `kinds`, over all suits.
#[inline]
pub fn suited_ranks(kinds: Kinds) -> u16 {
    (((kinds >> 0x11) | (kinds >> 0x21) | (kinds >> 0x31)) & 0x1FF) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for t in 0..34u8 {
            assert_eq!(to_code(from_code(t)), t);
            assert!(ALL.contains(&from_code(t)));
        }
        assert_eq!(from_code(9), 0x31); // 1p
        assert_eq!(from_code(18), 0x21); // 1s
        assert_eq!(from_code(32), 0x46); // 发
        assert!(ALL.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn kind_sets() {
        for &x in ALL.iter() {
            let bit = 1u128 << x;
            assert_eq!(SUITED & bit != 0, is_suited(x));
            assert_eq!(HONORS & bit != 0, is_honor(x));
            assert_eq!(WINDS & bit != 0, is_wind(x));
            assert_eq!(DRAGONS & bit != 0, is_dragon(x));
            assert_eq!(TERMINALS & bit != 0, is_terminal(x));
            assert_eq!(GREEN & bit != 0, is_green(x));
            assert_eq!(REVERSIBLE & bit != 0, is_reversible(x));
            assert_ne!(suit_kinds(suit(x)) & bit, 0);
            if is_suited(x) {
                assert_eq!(suited_ranks(bit), 1 << (rank(x) - 1));
            }
        }
        assert_eq!(kinds_of(&ALL).count_ones(), 34);
        let mut table: RTable = [0; 0x50];
        for (i, &x) in ALL.iter().enumerate() {
            table[x as usize] = (i % 8) as u8;
        }
        let held = kinds_of(&ALL) & !ALL.iter().step_by(8).fold(0, |m, &x| m | 1 << x);
        assert_eq!(kinds_in(&table), held);
        let mut table: RTable = [0; 0x50];
        for (i, &x) in ALL.iter().enumerate() {
            table[x as usize] = (i % 5) as u8;
        }
        assert_eq!(fours_in(&table), 6);
        assert_eq!(
            (1..=4).map(suit_kinds).fold(0, |a, b| a | b),
            kinds_of(&ALL)
        );
    }
}
