//! Melds, whole-hand validation (concealed counts plus declared melds) and how a hand was
//! won.

use crate::error::{MjError, MjResult};
use crate::tile::{self, Counts, Tile};

/// How a hand was won, in every rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WinKind {
    /// Self-drawn (自摸), including a win on a kong or flower replacement (Huainan: 天糊,
    /// 杠开 and 四个宝 too).
    SelfDrawn,
    /// On another seat's discard (点和; Huainan: 地糊 and 接宝 too).
    Discard,
    /// By robbing another seat's kong (抢杠和).
    RobbedKong,
}

impl WinKind {
    /// `self_drawn`, `discard` or `robbed_kong`.
    pub const fn as_str(self) -> &'static str {
        match self {
            WinKind::SelfDrawn => "self_drawn",
            WinKind::Discard => "discard",
            WinKind::RobbedKong => "robbed_kong",
        }
    }
}

/// The four kinds of declared meld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MeldKind {
    /// Three consecutive suited tiles (吃).
    Chow,
    /// Three identical tiles claimed or declared (碰).
    Pung,
    /// Four identical tiles, exposed (明杠), including a kong added to a pung (补杠).
    Kong,
    /// Four identical tiles declared from the hand (暗杠).
    ConcealedKong,
}

impl MeldKind {
    /// Python-facing name: `chow`, `pung`, `kong`, `concealed_kong`.
    pub fn as_str(self) -> &'static str {
        match self {
            MeldKind::Chow => "chow",
            MeldKind::Pung => "pung",
            MeldKind::Kong => "kong",
            MeldKind::ConcealedKong => "concealed_kong",
        }
    }
    /// Parses the Python-facing name.
    pub fn parse(s: &str) -> MjResult<Self> {
        Ok(match s {
            "chow" => MeldKind::Chow,
            "pung" => MeldKind::Pung,
            "kong" => MeldKind::Kong,
            "concealed_kong" => MeldKind::ConcealedKong,
            _ => {
                return Err(MjError::hand(format!(
                    "unknown meld kind {s:?} (expected chow, pung, kong or concealed_kong)"
                )))
            }
        })
    }
    /// Number of tiles in the meld.
    pub fn size(self) -> usize {
        match self {
            MeldKind::Chow | MeldKind::Pung => 3,
            MeldKind::Kong | MeldKind::ConcealedKong => 4,
        }
    }
    /// True for the two kongs.
    pub fn is_kong(self) -> bool {
        matches!(self, MeldKind::Kong | MeldKind::ConcealedKong)
    }
}

/// A declared meld: its kind and its lowest tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Meld {
    /// What kind of meld.
    pub kind: MeldKind,
    /// The lowest tile (a chow's first tile, the repeated tile of a pung or kong).
    pub tile: Tile,
}

impl Meld {
    /// A meld from its kind and its tiles, checked: a chow is three consecutive tiles of one
    /// suit, a pung three and a kong four identical non-flower tiles.
    pub fn new(kind: MeldKind, tiles: &[Tile]) -> MjResult<Self> {
        // Codes out of range have no MPSZ name: they are shown as numbers.
        let shown = || {
            if tiles.iter().all(|&t| tile::is_valid(t)) {
                tile::format(tiles)
            } else {
                format!("codes {tiles:?}")
            }
        };
        if tiles.len() != kind.size() {
            return Err(MjError::hand(format!(
                "a {} has {} tiles, got {} ({})",
                kind.as_str(),
                kind.size(),
                tiles.len(),
                shown()
            )));
        }
        if let Some(&bad) = tiles
            .iter()
            .find(|&&t| !tile::is_valid(t) || tile::is_flower(t))
        {
            return Err(MjError::hand(format!(
                "meld {} contains {}, which cannot be melded",
                shown(),
                if tile::is_valid(bad) {
                    tile::name(bad)
                } else {
                    format!("code {bad}")
                }
            )));
        }
        let mut s: Vec<Tile> = tiles.to_vec();
        s.sort_unstable();
        match kind {
            MeldKind::Chow => {
                if !tile::is_suited(s[0]) {
                    return Err(MjError::hand(format!("chow {} is made of honors", shown())));
                }
                if tile::suit(s[0]) != tile::suit(s[2]) || s[1] != s[0] + 1 || s[2] != s[0] + 2 {
                    return Err(MjError::hand(format!(
                        "chow {} is not three consecutive tiles of one suit",
                        shown()
                    )));
                }
            }
            _ => {
                if s.iter().any(|&t| t != s[0]) {
                    return Err(MjError::hand(format!(
                        "{} {} is not made of identical tiles",
                        kind.as_str(),
                        shown()
                    )));
                }
            }
        }
        Ok(Meld { kind, tile: s[0] })
    }

    /// Shorthand constructors for tests and engines that already hold valid tiles.
    pub fn chow(first: Tile) -> MjResult<Self> {
        Self::new(
            MeldKind::Chow,
            &[first, first.wrapping_add(1), first.wrapping_add(2)],
        )
    }
    /// A pung of `t`.
    pub fn pung(t: Tile) -> MjResult<Self> {
        Self::new(MeldKind::Pung, &[t, t, t])
    }
    /// An exposed kong of `t`.
    pub fn kong(t: Tile) -> MjResult<Self> {
        Self::new(MeldKind::Kong, &[t, t, t, t])
    }
    /// A concealed kong of `t`.
    pub fn concealed_kong(t: Tile) -> MjResult<Self> {
        Self::new(MeldKind::ConcealedKong, &[t, t, t, t])
    }

    /// The tiles of the meld in order.
    pub fn tiles(&self) -> Vec<Tile> {
        match self.kind {
            MeldKind::Chow => vec![self.tile, self.tile + 1, self.tile + 2],
            k => vec![self.tile; k.size()],
        }
    }

    /// Adds this meld's tiles to `counts`.
    #[inline]
    pub fn add_to(&self, counts: &mut Counts) {
        let t = self.tile as usize;
        match self.kind {
            MeldKind::Chow => {
                counts[t] += 1;
                counts[t + 1] += 1;
                counts[t + 2] += 1;
            }
            MeldKind::Pung => counts[t] += 3,
            _ => counts[t] += 4,
        }
    }

    /// True for a concealed kong.
    #[inline]
    pub fn is_concealed(&self) -> bool {
        self.kind == MeldKind::ConcealedKong
    }

    /// MPSZ text of the meld, e.g. `345m` or `1111p`.
    pub fn notation(&self) -> String {
        tile::format(&self.tiles())
    }
}

/// Counts every copy in the concealed hand and the melds; fails on a fifth copy.
pub fn total_counts(concealed: &Counts, melds: &[Meld]) -> MjResult<Counts> {
    let mut all = *concealed;
    for m in melds {
        m.add_to(&mut all);
    }
    if let Some(t) = all.iter().position(|&c| c > 4) {
        return Err(MjError::hand(format!(
            "{} copies of {} between the hand and its melds (at most 4)",
            all[t],
            tile::name(t as Tile)
        )));
    }
    Ok(all)
}

/// Whether a hand is waiting (13 - 3k concealed tiles) or complete (14 - 3k).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandSize {
    /// 13 - 3k tiles: one tile short of a full hand.
    Waiting,
    /// 14 - 3k tiles: a full hand.
    Full,
}

/// Checks a concealed hand with `melds` declared melds: at most four melds, no fifth copy,
/// and 13 - 3k or 14 - 3k concealed tiles. Returns which of the two sizes it is.
pub fn check_hand(concealed: &Counts, melds: &[Meld]) -> MjResult<HandSize> {
    if melds.len() > 4 {
        return Err(MjError::hand(format!(
            "{} melds given, at most 4",
            melds.len()
        )));
    }
    if let Some(t) = concealed.iter().position(|&c| c > 4) {
        return Err(MjError::hand(format!(
            "{} copies of {} in the hand (at most 4)",
            concealed[t],
            tile::name(t as Tile)
        )));
    }
    total_counts(concealed, melds)?;
    let n: usize = concealed.iter().map(|&c| c as usize).sum();
    let base = 13 - 3 * melds.len();
    if n == base {
        Ok(HandSize::Waiting)
    } else if n == base + 1 {
        Ok(HandSize::Full)
    } else {
        Err(MjError::hand(format!(
            "{} concealed tiles with {} meld(s): expected {} or {}",
            n,
            melds.len(),
            base,
            base + 1
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meld_validation_names_the_problem() {
        assert!(Meld::new(MeldKind::Chow, &[27, 28, 29])
            .unwrap_err()
            .message()
            .contains("honors"));
        assert!(Meld::new(MeldKind::Chow, &[7, 8, 9])
            .unwrap_err()
            .message()
            .contains("consecutive"));
        assert!(Meld::new(MeldKind::Pung, &[1, 1])
            .unwrap_err()
            .message()
            .contains("3 tiles"));
        assert!(Meld::new(MeldKind::Kong, &[1, 1, 1, 2]).is_err());
        assert!(Meld::new(MeldKind::Pung, &[34, 34, 34]).is_err());
        let m = Meld::new(MeldKind::Chow, &[5, 3, 4]).unwrap();
        assert_eq!(m.tile, 3);
        assert_eq!(m.notation(), "456m");
    }

    #[test]
    fn hand_sizes() {
        let c = tile::to_counts(&tile::parse("123m456p789s1155z").unwrap()).unwrap();
        assert_eq!(check_hand(&c, &[]).unwrap(), HandSize::Waiting);
        let melds = [Meld::pung(27).unwrap(), Meld::pung(27).unwrap()];
        assert!(check_hand(&c, &melds).is_err());
        let c2 = tile::to_counts(&tile::parse("1111m").unwrap()).unwrap();
        let m4 = [Meld::pung(0).unwrap(); 4];
        assert!(check_hand(&c2, &m4[..3])
            .unwrap_err()
            .message()
            .contains("1m"));
    }
}
