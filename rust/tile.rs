//! Tile codes, tile-count arrays and MPSZ notation.
//!
//! Codes: 0-8 = 1m-9m (万), 9-17 = 1p-9p (筒), 18-26 = 1s-9s (条),
//! 27-33 = 1z-7z in the Chinese order 东 南 西 北 中 发 白, 34-41 = flowers 1f-8f
//! (梅 兰 竹 菊 春 夏 秋 冬). Searches work on [`Counts`], one count per kind 0-33.

use crate::error::{MjError, MjResult};

/// A tile code, 0-41.
pub type Tile = u8;
/// Concealed-tile counts per kind (0-33); flowers are never part of a hand.
pub type Counts = [u8; 34];

/// Number of non-flower tile kinds.
pub const N_KINDS: usize = 34;
/// Number of tile codes including the eight flowers.
pub const N_CODES: usize = 42;
/// First honor code (东).
pub const EAST: Tile = 27;
/// 中 (red dragon).
pub const RED: Tile = 31;
/// 发 (green dragon).
pub const GREEN: Tile = 32;
/// 白 (white dragon).
pub const WHITE: Tile = 33;
/// First flower code (梅, 1f).
pub const FIRST_FLOWER: Tile = 34;
/// The 13 terminals and honors (幺九) in code order.
pub const TERMINALS_AND_HONORS: [Tile; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

const SUIT_LETTERS: [char; 5] = ['m', 'p', 's', 'z', 'f'];
const NUM_ZH: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const SUIT_ZH: [&str; 3] = ["万", "筒", "条"];
const HONOR_ZH: [&str; 7] = ["东", "南", "西", "北", "中", "发", "白"];
const FLOWER_ZH: [&str; 8] = ["梅", "兰", "竹", "菊", "春", "夏", "秋", "冬"];

/// True for a valid code (0-41).
#[inline]
pub fn is_valid(t: Tile) -> bool {
    (t as usize) < N_CODES
}
/// True for a suited tile (万, 筒, 条).
#[inline]
pub fn is_suited(t: Tile) -> bool {
    t < EAST
}
/// True for a wind or dragon.
#[inline]
pub fn is_honor(t: Tile) -> bool {
    (EAST..FIRST_FLOWER).contains(&t)
}
/// True for a wind (东南西北).
#[inline]
pub fn is_wind(t: Tile) -> bool {
    (EAST..RED).contains(&t)
}
/// True for a dragon (中发白).
#[inline]
pub fn is_dragon(t: Tile) -> bool {
    (RED..FIRST_FLOWER).contains(&t)
}
/// True for a flower (1f-8f).
#[inline]
pub fn is_flower(t: Tile) -> bool {
    (FIRST_FLOWER as usize..N_CODES).contains(&(t as usize))
}
/// True for a suited 1 or 9.
#[inline]
pub fn is_terminal(t: Tile) -> bool {
    is_suited(t) && (t % 9 == 0 || t % 9 == 8)
}
/// True for a terminal or an honor (幺九).
#[inline]
pub fn is_terminal_or_honor(t: Tile) -> bool {
    is_terminal(t) || is_honor(t)
}
/// Suit index 0-2 of a suited tile (万 筒 条), 3 for honors, 4 for flowers.
#[inline]
pub fn suit(t: Tile) -> u8 {
    if t < EAST {
        t / 9
    } else if t < FIRST_FLOWER {
        3
    } else {
        4
    }
}
/// Rank 1-9 of a suited tile, 1-7 of an honor, 1-8 of a flower.
#[inline]
pub fn rank(t: Tile) -> u8 {
    match suit(t) {
        0..=2 => t % 9 + 1,
        3 => t - EAST + 1,
        _ => t - FIRST_FLOWER + 1,
    }
}
/// Builds a code from a suit index (0-4, as [`suit`]) and a rank (1-based).
pub fn from_suit_rank(suit: u8, rank: u8) -> MjResult<Tile> {
    let (base, max) = match suit {
        0..=2 => (suit * 9, 9),
        3 => (EAST, 7),
        4 => (FIRST_FLOWER, 8),
        _ => return Err(MjError::hand(format!("suit index {suit} is not 0-4"))),
    };
    if rank == 0 || rank > max {
        let letter = SUIT_LETTERS[suit as usize];
        return Err(MjError::hand(format!(
            "'{rank}{letter}' is not a tile (ranks of {letter} are 1-{max})"
        )));
    }
    Ok(base + rank - 1)
}

/// Checks that `t` is a valid code, naming it otherwise.
pub fn check(t: i64) -> MjResult<Tile> {
    if (0..N_CODES as i64).contains(&t) {
        Ok(t as Tile)
    } else {
        Err(MjError::hand(format!(
            "tile code {t} is out of range (0-41)"
        )))
    }
}

/// MPSZ name of one tile, e.g. `"5m"`, `"1z"`, `"3f"`.
pub fn name(t: Tile) -> String {
    let s = suit(t);
    format!("{}{}", rank(t), SUIT_LETTERS[s as usize])
}

/// Chinese name: 一万 … 九条, 东 南 西 北 中 发 白, 梅 兰 竹 菊 春 夏 秋 冬.
pub fn name_zh(t: Tile) -> String {
    let r = rank(t) as usize;
    match suit(t) {
        s @ 0..=2 => format!("{}{}", NUM_ZH[r - 1], SUIT_ZH[s as usize]),
        3 => HONOR_ZH[r - 1].to_string(),
        _ => FLOWER_ZH[r - 1].to_string(),
    }
}

/// The Unicode Mahjong Tiles glyph (U+1F000 block).
pub fn glyph(t: Tile) -> char {
    let offset: u32 = match suit(t) {
        0 => 0x07 + (t as u32),
        1 => 0x19 + (t as u32 - 9),
        2 => 0x10 + (t as u32 - 18),
        // East South West North are U+1F000-3; red, green, white dragons U+1F004-6.
        3 => (t - EAST) as u32,
        // Plum orchid bamboo chrysanthemum, then spring summer autumn winter.
        _ => 0x22 + (t - FIRST_FLOWER) as u32,
    };
    char::from_u32(0x1F000 + offset).unwrap_or('?')
}

/// Parses MPSZ notation (`"123m456p789s1155z"`, flowers `"12f"`); spaces are ignored.
/// Digits are collected until a suit letter closes the group.
pub fn parse(s: &str) -> MjResult<Vec<Tile>> {
    let mut out = Vec::with_capacity(14);
    let mut pending: Vec<u8> = Vec::new();
    for (pos, ch) in s.chars().enumerate() {
        if ch.is_whitespace() {
            continue;
        }
        if let Some(d) = ch.to_digit(10) {
            pending.push(d as u8);
            continue;
        }
        let lower = ch.to_ascii_lowercase();
        let Some(si) = SUIT_LETTERS.iter().position(|&c| c == lower) else {
            return Err(MjError::hand(format!(
                "unexpected character {ch:?} at position {pos} in {s:?} (MPSZ uses digits and m, p, s, z, f)"
            )));
        };
        if pending.is_empty() {
            return Err(MjError::hand(format!(
                "suit letter '{ch}' at position {pos} in {s:?} has no digits before it"
            )));
        }
        for &d in &pending {
            out.push(from_suit_rank(si as u8, d)?);
        }
        pending.clear();
    }
    if !pending.is_empty() {
        return Err(MjError::hand(format!(
            "{s:?} ends with digits that have no suit letter"
        )));
    }
    Ok(out)
}

/// Writes tiles as sorted, grouped MPSZ.
pub fn format(tiles: &[Tile]) -> String {
    let mut sorted: Vec<Tile> = tiles.to_vec();
    sorted.sort_unstable();
    let mut out = String::with_capacity(sorted.len() + 5);
    let mut i = 0;
    while i < sorted.len() {
        let s = suit(sorted[i]);
        while i < sorted.len() && suit(sorted[i]) == s {
            out.push(char::from(b'0' + rank(sorted[i])));
            i += 1;
        }
        out.push(SUIT_LETTERS[s as usize]);
    }
    out
}

/// Writes a count array as MPSZ.
pub fn format_counts(counts: &Counts) -> String {
    format(&counts_to_tiles(counts))
}

/// Expands counts to a sorted tile list.
pub fn counts_to_tiles(counts: &Counts) -> Vec<Tile> {
    let mut v = Vec::with_capacity(14);
    for (t, &c) in counts.iter().enumerate() {
        for _ in 0..c {
            v.push(t as Tile);
        }
    }
    v
}

/// Counts a list of non-flower tiles, rejecting flowers and fifth copies.
pub fn to_counts(tiles: &[Tile]) -> MjResult<Counts> {
    let mut c = [0u8; 34];
    for &t in tiles {
        if !is_valid(t) {
            return Err(MjError::hand(format!(
                "tile code {t} is out of range (0-41)"
            )));
        }
        if is_flower(t) {
            return Err(MjError::hand(format!(
                "flower {} cannot be part of a hand",
                name(t)
            )));
        }
        c[t as usize] += 1;
        if c[t as usize] > 4 {
            return Err(MjError::hand(format!(
                "more than four copies of {}",
                name(t)
            )));
        }
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_format_round_trip() {
        let t = parse("123m456p789s1155z").unwrap();
        assert_eq!(t, vec![0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 31, 31]);
        assert_eq!(format(&t), "123m456p789s1155z");
        assert_eq!(format(&[33, 0, 34]), "1m7z1f");
    }

    #[test]
    fn parse_rejects_bad_text() {
        assert!(parse("0m").unwrap_err().message().contains("'0m'"));
        assert!(parse("8z").is_err());
        assert!(parse("9f").is_err());
        assert!(parse("12")
            .unwrap_err()
            .message()
            .contains("no suit letter"));
        assert!(parse("m").is_err());
        assert!(parse("1x").unwrap_err().message().contains("'x'"));
    }

    #[test]
    fn names_and_glyphs() {
        assert_eq!(name_zh(0), "一万");
        assert_eq!(name_zh(27), "东");
        assert_eq!(name_zh(31), "中");
        assert_eq!(name_zh(34), "梅");
        assert_eq!(glyph(27), '\u{1F000}');
        assert_eq!(glyph(31), '\u{1F004}');
        assert_eq!(glyph(0), '\u{1F007}');
        assert_eq!(glyph(9), '\u{1F019}');
        assert_eq!(glyph(18), '\u{1F010}');
        assert_eq!(glyph(41), '\u{1F029}');
    }

    #[test]
    fn classes() {
        assert!(is_terminal(0) && is_terminal(26) && !is_terminal(27));
        assert!(is_wind(30) && is_dragon(31) && !is_wind(31));
        assert_eq!((suit(13), rank(13)), (1, 5));
        assert!(to_counts(&[1, 1, 1, 1, 1])
            .unwrap_err()
            .message()
            .contains("2m"));
    }
}
