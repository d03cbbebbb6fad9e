//! Input checks the reference calculator lacks, and its flag rules.
//!
//! Rejected with [`MjError::InvalidHand`]: more than four melds, a winning tile or meld
//! that is not a tile (or is a flower), a chow that is not three consecutive suited tiles,
//! a wrong number of concealed tiles, a fifth copy anywhere, winds outside 0-3, more
//! flowers than the rule set allows, a declared ready the rule set does not have, and flags
//! that cannot all hold (unless `correct_impossible_flags`, which drops them as the
//! reference does). One flag is always derived: a winning tile whose other three copies
//! sit in the player's own exposed melds is necessarily 和绝张.

use super::rtile;
use super::score::WinFlags;
use super::{FanOptions, WinInput};
use crate::error::{MjError, MjResult};
use crate::hand::MeldKind;
use crate::tile::{self, Tile};

/// MPSZ text of the concealed tiles and melds, for messages.
pub fn describe_hand(input: &WinInput) -> String {
    let mut s = tile::format_counts(&sanitized(&input.hand));
    for m in input.melds() {
        if m.tile < 34 {
            s.push(' ');
            s.push_str(&m.notation());
        }
    }
    s
}

fn sanitized(c: &crate::tile::Counts) -> crate::tile::Counts {
    let mut out = *c;
    for x in out.iter_mut() {
        *x = (*x).min(4);
    }
    out
}

/// Checks `input` and returns the flags to score with.
pub fn check(input: &WinInput, opts: &FanOptions) -> MjResult<WinFlags> {
    let held = check_tiles(input, opts)?;
    check_flags(input, opts, held)
}

/// Where the player holds other copies of the winning tile, from [`check_tiles`]: what
/// the flag rules need to know.
#[derive(Debug, Clone, Copy)]
pub struct WinTileHeld {
    /// Copies among the concealed tiles.
    pub in_hand: u8,
    /// Copies among the declared melds.
    pub in_melds: u8,
    /// A kong is among the melds.
    pub has_kong: bool,
}

/// Checks everything of `input` but its win flags (melds, tiles, copies, winds,
/// flowers, declared ready).
pub fn check_tiles(input: &WinInput, opts: &FanOptions) -> MjResult<WinTileHeld> {
    if input.n_melds > 4 {
        return Err(too_many_melds(input.n_melds));
    }
    let w = input.win_tile;
    if w as usize >= tile::N_CODES {
        return Err(invalid(format_args!(
            "winning tile code {w} is out of range (0-33)"
        )));
    }
    if tile::is_flower(w) {
        return Err(invalid(format_args!(
            "the winning tile {} is a flower; pass flowers as a count",
            tile::name(w)
        )));
    }
    let held = check_hand(input, opts, Some(w))?;
    Ok(held.of(input, w))
}

/// An [`MjError::InvalidHand`] with this message: out of line, so that the checks on the
/// scoring path stay small.
#[cold]
#[inline(never)]
pub(super) fn invalid(message: std::fmt::Arguments<'_>) -> MjError {
    MjError::hand(message.to_string())
}

fn too_many_melds(n: u8) -> MjError {
    invalid(format_args!("{n} melds given, at most 4"))
}

/// Copies of each kind between a hand's concealed tiles and its melds, from
/// [`check_hand`].
#[derive(Debug, Clone, Copy)]
pub struct HandHeld {
    /// Copies of each kind (with the winning tile when [`check_hand`] was given one).
    pub all: [u8; 34],
    /// A kong is among the melds.
    pub has_kong: bool,
}

impl HandHeld {
    /// Where the player holds other copies of the winning tile `w` (`all` counting it).
    pub fn of(&self, input: &WinInput, w: crate::tile::Tile) -> WinTileHeld {
        self.others_of(input, w, 1)
    }

    /// [`HandHeld::of`] when `all` does not count the winning tile `w` (the copies of a
    /// waiting hand, checked without one).
    pub fn before_win(&self, input: &WinInput, w: crate::tile::Tile) -> WinTileHeld {
        self.others_of(input, w, 0)
    }

    /// No other copy of a winning tile held: a waiting hand laid out before its winning
    /// tile is known.
    pub fn no_win_tile(&self) -> WinTileHeld {
        WinTileHeld {
            in_hand: 0,
            in_melds: 0,
            has_kong: self.has_kong,
        }
    }

    /// The copies of `w` in the hand and in the melds, `counted` of `all`'s being the
    /// winning tile's own.
    #[inline]
    fn others_of(&self, input: &WinInput, w: crate::tile::Tile, counted: u8) -> WinTileHeld {
        let in_hand = input.hand[w as usize];
        WinTileHeld {
            in_hand,
            in_melds: self.all[w as usize] - in_hand - counted,
            has_kong: self.has_kong,
        }
    }
}

/// Checks everything of `input` but the winning tile's own range and its win flags:
/// melds, concealed tiles, copies (with one more of `win` when given), winds, flowers,
/// declared ready. Without `win` it passes exactly when [`check_tiles`] passes for some
/// winning tile; with it, as [`check_tiles`] once the winning tile is a tile.
pub fn check_hand(
    input: &WinInput,
    opts: &FanOptions,
    win: Option<crate::tile::Tile>,
) -> MjResult<HandHeld> {
    if input.n_melds > 4 {
        return Err(too_many_melds(input.n_melds));
    }
    let mut all = [0u8; 34];
    for m in input.melds() {
        if m.tile >= 34 {
            return Err(invalid(format_args!(
                "a {} names tile code {}, which cannot be melded",
                m.kind.as_str(),
                m.tile
            )));
        }
        match m.kind {
            MeldKind::Chow => {
                if !tile::is_suited(m.tile) || tile::rank(m.tile) > 7 {
                    return Err(invalid(format_args!(
                        "a chow starting at {} is not three consecutive tiles of one suit",
                        tile::name(m.tile)
                    )));
                }
                for k in 0..3 {
                    all[(m.tile + k) as usize] += 1;
                }
            }
            MeldKind::Pung => all[m.tile as usize] += 3,
            _ => all[m.tile as usize] += 4,
        }
    }
    // Whole-table passes; the first kind held too often names the error.
    let hand = rtile::count_words(&input.hand);
    if above_four_in(&hand) {
        let (t, c) = first_above_four(&input.hand);
        return Err(invalid(format_args!(
            "{c} copies of {} in the hand (at most 4)",
            tile::name(t)
        )));
    }
    // At most 4 a count: a word's eight counts sum below 256, gathered in its top byte.
    let n: usize = hand
        .iter()
        .map(|&x| (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize)
        .sum();
    let want = 13 - 3 * input.n_melds as usize;
    if n != want {
        return Err(invalid(format_args!(
            "{n} concealed tiles with {} meld(s): expected {want}, without the winning tile",
            input.n_melds
        )));
    }
    // The copies of each kind, eight a word: the melds' counts (at most 16) plus the
    // hand's (at most 4) and the winning tile never carry out of their byte.
    let mut copies = rtile::count_words(&all);
    for (c, h) in copies.iter_mut().zip(hand.iter()) {
        *c += h;
    }
    if let Some(w) = win {
        copies[w as usize / 8] += 1 << (8 * (w as usize % 8));
    }
    for (a, c) in all.chunks_mut(8).zip(copies.iter()) {
        a.copy_from_slice(&c.to_le_bytes()[..a.len()]);
    }
    if above_four_in(&copies) {
        let (t, c) = first_above_four(&all);
        return Err(invalid(format_args!(
            "{c} copies of {} between the hand, its melds and the winning tile (at most 4)",
            tile::name(t)
        )));
    }
    if input.seat_wind > 3 {
        return Err(invalid(format_args!(
            "seat wind {} is not 0-3 (E S W N)",
            input.seat_wind
        )));
    }
    if input.prevalent_wind > 3 {
        return Err(invalid(format_args!(
            "prevalent wind {} is not 0-3 (E S W N)",
            input.prevalent_wind
        )));
    }
    if input.flowers > opts.max_flowers {
        return Err(if opts.max_flowers == 0 {
            invalid(format_args!(
                "{} flowers given, but this rule set plays without flowers",
                input.flowers
            ))
        } else {
            invalid(format_args!(
                "{} flowers given, at most {}",
                input.flowers, opts.max_flowers
            ))
        });
    }
    if input.declared_ready && !opts.ready_fan {
        return Err(invalid(format_args!(
            "declared ready (报听) is not part of this rule set"
        )));
    }
    Ok(HandHeld {
        all,
        has_kong: input.melds().iter().any(|m| m.kind.is_kong()),
    })
}

/// Whether a count of `words` ([`rtile::count_words`]) is above 4: a count's high bit, or
/// its low seven bits plus 123 reaching the high bit (no carry leaves the byte).
#[inline(always)]
fn above_four_in(words: &[u64; 5]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    words
        .iter()
        .any(|&x| (x | ((x & !HIGH) + 0x7B7B_7B7B_7B7B_7B7B)) & HIGH != 0)
}

/// The first kind of `counts` held more than four times, and its count ([`above_four_in`]).
#[cold]
fn first_above_four(counts: &[u8; 34]) -> (Tile, u8) {
    let t = counts.iter().position(|&c| c > 4).unwrap_or(0);
    (t as Tile, counts[t])
}

/// The flags of `input` to score with, after [`check_tiles`] passed and told `held`:
/// flags that cannot all hold are an error (or dropped, with
/// `correct_impossible_flags`), and 和绝张 is derived when the other three copies are in
/// the player's melds.
pub fn check_flags(input: &WinInput, opts: &FanOptions, held: WinTileHeld) -> MjResult<WinFlags> {
    let WinTileHeld {
        in_hand,
        in_melds,
        has_kong,
    } = held;
    let mut f = WinFlags {
        self_drawn: input.self_drawn,
        fourth_tile: input.fourth_tile,
        about_kong: input.about_kong,
        wall_last: input.wall_last,
    };
    let lenient = opts.correct_impossible_flags;
    let wname = || tile::name(input.win_tile);
    if f.fourth_tile && in_hand > 0 {
        if !lenient {
            return Err(invalid(format_args!(
                "fourth_tile (和绝张) cannot hold: the winner still holds another {}",
                wname()
            )));
        }
        f.fourth_tile = false;
    }
    // A kong declared with one tile left takes the last wall tile as its replacement, so
    // 杠上开花 and 妙手回春 can hold together; a kong cannot be robbed on the last discard.
    if f.about_kong && f.wall_last && !f.self_drawn {
        if !lenient {
            return Err(invalid(format_args!(
                "robbing a kong (抢杠和) and the last discard (海底捞月) cannot both hold"
            )));
        }
        f.wall_last = false;
    }
    if f.about_kong && f.self_drawn && !has_kong {
        if !lenient {
            return Err(invalid(format_args!(
                "a win on a kong replacement (杠上开花) needs a kong among the melds"
            )));
        }
        f.about_kong = false;
    }
    if f.about_kong && !f.self_drawn && (in_hand > 0 || in_melds > 0) {
        if !lenient {
            return Err(invalid(format_args!(
                "robbing a kong (抢杠和) of {0} cannot hold: the winner holds a {0}",
                wname()
            )));
        }
        f.about_kong = false;
    }
    if in_melds == 3 {
        f.fourth_tile = true;
    }
    Ok(f)
}
