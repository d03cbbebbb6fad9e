//! Choosing the 宝 (docs/rules/huainan.md §5): the indicator's position in the wall and the
//! successor cycles that turn the indicator's face into the 宝 face.

use super::{IndicatorEnd, IndicatorTile};
use crate::error::{MjError, MjResult};
use crate::tile::{self, Tile, EAST, RED, WHITE};

/// The 宝 face shown by an indicator: the next face in its cycle. Suits run 1→…→9→1,
/// winds 东→南→西→北→东, dragons 中→发→白→中 (§5.2). Fails on a flower or a bad code.
pub fn bao_for_indicator(indicator: Tile) -> MjResult<Tile> {
    if !tile::is_valid(indicator) || tile::is_flower(indicator) {
        return Err(MjError::hand(format!(
            "a 宝 indicator is a suited or honour tile, got {}",
            if tile::is_valid(indicator) {
                tile::name(indicator)
            } else {
                format!("code {indicator}")
            }
        )));
    }
    Ok(succ(indicator))
}

/// [`bao_for_indicator`] without the check, for codes 0-33.
#[inline]
pub fn succ(t: Tile) -> Tile {
    if tile::is_suited(t) {
        let base = t - t % 9;
        base + (t % 9 + 1) % 9
    } else if t < RED {
        EAST + (t - EAST + 1) % 4
    } else if t < WHITE {
        t + 1
    } else {
        RED
    }
}

/// The linear wall index of the indicator for a throw `s2` (2-12) counted in stacks from
/// the tail of a wall of `n_tiles` tiles (D-5): the upper tile of the `s2`-th stack from the
/// tail, `W[n_tiles − 2·s2]` (`W[132]` for `s2 = 2` in a 136-tile wall).
pub fn indicator_index(s2: u8, n_tiles: usize) -> MjResult<usize> {
    if !(2..=12).contains(&s2) {
        return Err(MjError::hand(format!("a two-dice throw is 2-12, got {s2}")));
    }
    let back = 2 * s2 as usize;
    if n_tiles % 2 != 0 || n_tiles < back + 52 {
        return Err(MjError::hand(format!(
            "a wall of {n_tiles} tiles has no indicator for a throw of {s2}"
        )));
    }
    Ok(n_tiles - back)
}

/// The linear wall index of the indicator under the D-5 options: the `s2`-th stack counted
/// from the tail (stack 1 is the last stack) or from the head (stack 1 is the first whole
/// stack after the 53 dealt tiles, `S27`), and its upper or lower tile. From the tail with
/// the upper tile this is [`indicator_index`]; from the head it is `W[52 + 2·s2]` (upper).
pub fn indicator_position(
    s2: u8,
    n_tiles: usize,
    from: IndicatorEnd,
    tile: IndicatorTile,
) -> MjResult<usize> {
    let upper = match from {
        IndicatorEnd::Tail => indicator_index(s2, n_tiles)?,
        IndicatorEnd::Head => {
            if !(2..=12).contains(&s2) {
                return Err(MjError::hand(format!("a two-dice throw is 2-12, got {s2}")));
            }
            let i = crate::wall::DEALT - 1 + 2 * s2 as usize;
            if n_tiles % 2 != 0 || i + 2 > n_tiles {
                return Err(MjError::hand(format!(
                    "a wall of {n_tiles} tiles has no indicator for a throw of {s2}"
                )));
            }
            i
        }
    };
    Ok(upper + usize::from(tile == IndicatorTile::Lower))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        tile::parse(s).unwrap()[0]
    }

    #[test]
    fn h0_successor_cycles() {
        assert_eq!(succ(t("9m")), t("1m"));
        assert_eq!(succ(t("1m")), t("2m"));
        assert_eq!(succ(t("4p")), t("5p"));
        assert_eq!(succ(t("3s")), t("4s"));
        assert_eq!(succ(t("9s")), t("1s"));
        assert_eq!(succ(t("1z")), t("2z"));
        assert_eq!(succ(t("4z")), t("1z"));
        assert_eq!(succ(t("5z")), t("6z"));
        assert_eq!(succ(t("6z")), t("7z"));
        assert_eq!(succ(t("7z")), t("5z"));
        // Every face is the 宝 of exactly one indicator.
        let mut seen = [0u8; 34];
        for i in 0..34u8 {
            seen[succ(i) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c == 1));
        assert!(bao_for_indicator(34).is_err());
        assert!(bao_for_indicator(99).is_err());
    }

    #[test]
    fn h0_indicator_position() {
        assert_eq!(indicator_index(7, 136).unwrap(), 122);
        assert_eq!(indicator_index(2, 136).unwrap(), 132);
        assert_eq!(indicator_index(12, 136).unwrap(), 112);
        assert!(indicator_index(1, 136).is_err());
        assert!(indicator_index(13, 136).is_err());
        // D-5 alternatives: the lower tile, or counting from the head after the deal.
        assert_eq!(
            indicator_position(7, 136, IndicatorEnd::Tail, IndicatorTile::Upper).unwrap(),
            122
        );
        assert_eq!(
            indicator_position(7, 136, IndicatorEnd::Tail, IndicatorTile::Lower).unwrap(),
            123
        );
        assert_eq!(
            indicator_position(2, 136, IndicatorEnd::Head, IndicatorTile::Upper).unwrap(),
            56
        );
        assert_eq!(
            indicator_position(12, 136, IndicatorEnd::Head, IndicatorTile::Lower).unwrap(),
            77
        );
        assert!(indicator_position(1, 136, IndicatorEnd::Head, IndicatorTile::Upper).is_err());
    }
}
