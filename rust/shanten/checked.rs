//! Checked entry points: validate a hand, its melds and the wild kind, then answer with
//! the fast functions of [`super`] over the rule set's forms. Every problem is an
//! [`MjError::InvalidHand`] whose message names it. Whether the rule set has wild tiles at
//! all is the caller's question (it knows the rule set).

use super::{form_distance, useful, Form, Forms};
use crate::error::{MjError, MjResult};
use crate::hand::{check_hand, HandSize, Meld};
use crate::tile::{self, Counts, Tile};

/// A validated hand, ready for the oracle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hand {
    /// Concealed tiles other than wilds.
    pub counts: Counts,
    /// Copies of each kind in the melds.
    pub used: Counts,
    /// Number of declared melds.
    pub n_melds: u8,
    /// Number of wild tiles in the concealed hand.
    pub wilds: u8,
    /// The wild kind, if the rule set has one.
    pub wild: Option<Tile>,
    /// The hand forms of the rule set.
    pub forms: Forms,
    /// True for a full hand (`14 - 3k` tiles), false for a waiting one (`13 - 3k`).
    pub full: bool,
}

impl Hand {
    /// Validates `concealed` with `melds`, to be read over `forms`. `wild` is the wild
    /// kind, for a rule set that has one: every concealed tile of that kind is a wild; no
    /// meld may contain it.
    pub fn new(
        concealed: &Counts,
        melds: &[Meld],
        forms: Forms,
        wild: Option<Tile>,
    ) -> MjResult<Hand> {
        let size = check_hand(concealed, melds)?;
        let mut counts = *concealed;
        let mut wilds = 0u8;
        if let Some(w) = wild {
            if !tile::is_valid(w) || tile::is_flower(w) {
                return Err(MjError::hand(format!(
                    "the wild kind must be a tile 0-33, got {}",
                    if tile::is_valid(w) {
                        tile::name(w)
                    } else {
                        format!("code {w}")
                    }
                )));
            }
            if let Some(m) = melds.iter().find(|m| m.tiles().contains(&w)) {
                return Err(MjError::hand(format!(
                    "meld {} contains the wild tile {}: wilds never go into melds",
                    m.notation(),
                    tile::name(w)
                )));
            }
            wilds = counts[w as usize];
            counts[w as usize] = 0;
        }
        Ok(Hand {
            counts,
            used: super::used_counts(melds),
            n_melds: melds.len() as u8,
            wilds,
            wild,
            forms,
            full: size == HandSize::Full,
        })
    }

    /// A concealed hand without melds or wilds whose counts are already known to be valid
    /// (each at most 4, 13 tiles when `full` is false, 14 when true): the short path for
    /// callers that read and checked the tiles themselves.
    pub fn concealed(counts: Counts, forms: Forms, full: bool) -> Hand {
        debug_assert!(counts.iter().all(|&c| c <= 4));
        debug_assert_eq!(
            counts.iter().map(|&c| c as usize).sum::<usize>(),
            13 + full as usize
        );
        Hand {
            counts,
            used: [0; 34],
            n_melds: 0,
            wilds: 0,
            wild: None,
            forms,
            full,
        }
    }

    /// Shanten over the rule set's forms (-1 = complete).
    pub fn shanten(&self) -> i8 {
        let s = super::shanten_in(
            self.forms,
            &self.counts,
            &self.used,
            self.n_melds,
            self.wilds,
        );
        if s > 0 && self.wild_draw_wins() {
            return 0;
        }
        s
    }

    /// True for a waiting hand that a drawn wild completes. The wild may stand for a fifth
    /// copy, so this can hold when every natural wait is used up (e.g. the fourth 5p
    /// beside a pung of 5p).
    fn wild_draw_wins(&self) -> bool {
        !self.full
            && self.wild_draw_helps()
            && useful::is_win_in(
                self.forms,
                &self.counts,
                &self.used,
                self.n_melds,
                self.wilds + 1,
            )
    }

    /// Shanten of each of the rule set's forms that can apply, in [`Form::ALL`] order.
    pub fn forms(&self) -> impl Iterator<Item = (Form, i8)> + '_ {
        Form::ALL
            .into_iter()
            .filter(|f| self.forms.contains(*f))
            .filter_map(|f| {
                super::form_shanten(f, &self.counts, &self.used, self.n_melds, self.wilds)
                    .map(|s| (f, s))
            })
    }

    fn require_waiting(&self, what: &str) -> MjResult<()> {
        if self.full {
            let n = 13 - 3 * self.n_melds as usize;
            return Err(MjError::hand(format!(
                "{what} takes a waiting hand of {n} tiles with {} meld(s), got {}",
                self.n_melds,
                n + 1
            )));
        }
        Ok(())
    }

    /// True if a wild can still be drawn: a wild lowers the shanten of every waiting hand
    /// (it is at least as good as any useful tile, and a waiting hand always has one).
    fn wild_draw_helps(&self) -> bool {
        self.wild.is_some() && self.wilds < 4
    }

    fn mask_with_wild(&self, mut mask: u64, wild_helps: bool) -> u64 {
        if let Some(w) = self.wild {
            mask &= !(1u64 << w);
            if wild_helps {
                mask |= 1 << w;
            }
        }
        mask
    }

    /// The kinds whose draw lowers the shanten (over all forms, or over `form` alone),
    /// sorted. Waiting hands only.
    pub fn useful_tiles(&self, form: Option<Form>) -> MjResult<Vec<Tile>> {
        Ok(tiles_of(self.useful_mask(form)?))
    }

    /// [`Hand::useful_tiles`] as a bit mask (bit `t` for kind `t`).
    pub fn useful_mask(&self, form: Option<Form>) -> MjResult<u64> {
        self.require_waiting("useful_tiles")?;
        let forms = match form {
            Some(f) => {
                if !self.forms.contains(f) {
                    return Err(MjError::hand(format!(
                        "the form {} is not part of this rule set",
                        f.as_str()
                    )));
                }
                Forms::only(f)
            }
            None => self.forms,
        };
        let (h, u, k, w) = (&self.counts, &self.used, self.n_melds, self.wilds);
        if let Some(f) = form {
            // The regular form applies beside any number of melds; the others may not.
            if f != Form::Regular && super::form_distance(f, h, u, k, w).is_none() {
                return Err(MjError::hand(format!(
                    "the form {} cannot apply with {k} meld(s)",
                    f.as_str()
                )));
            }
        }
        let mask = useful::useful_tiles_in(forms, h, u, k, w);
        Ok(self.mask_with_wild(mask, self.wild_draw_helps()))
    }

    /// The kinds that complete the hand (in any form), sorted; empty unless ready.
    pub fn waits(&self) -> MjResult<Vec<Tile>> {
        Ok(tiles_of(self.waits_mask()?))
    }

    /// [`Hand::waits`] as a bit mask (bit `t` for kind `t`).
    pub fn waits_mask(&self) -> MjResult<u64> {
        self.require_waiting("waits")?;
        let (h, u, k, w) = (&self.counts, &self.used, self.n_melds, self.wilds);
        let d = super::distance_in(self.forms, h, u, k, w);
        if d != w + 1 {
            return Ok(self.mask_with_wild(0, self.wild_draw_wins()));
        }
        let mask = useful::useful_tiles_in(self.forms, h, u, k, w);
        Ok(self.mask_with_wild(mask, self.wild_draw_helps()))
    }

    /// True if the full hand is complete in one of the rule set's forms.
    pub fn is_win(&self) -> MjResult<bool> {
        if !self.full {
            let n = 14 - 3 * self.n_melds as usize;
            return Err(MjError::hand(format!(
                "is_win takes a full hand of {n} tiles with {} meld(s), got {}",
                self.n_melds,
                n - 1
            )));
        }
        Ok(useful::is_win_in(
            self.forms,
            &self.counts,
            &self.used,
            self.n_melds,
            self.wilds,
        ))
    }

    /// The replacement number of one form (`None` when it cannot apply).
    pub fn form_distance(&self, form: Form) -> Option<u8> {
        form_distance(form, &self.counts, &self.used, self.n_melds, self.wilds)
    }
}

/// The kinds in a mask, in order.
pub fn tiles_of(mask: u64) -> Vec<Tile> {
    (0..34u8).filter(|&t| mask >> t & 1 == 1).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(s: &str, melds: &[Meld], forms: Forms, wild: Option<Tile>) -> MjResult<Hand> {
        Hand::new(
            &tile::to_counts(&tile::parse(s).unwrap()).unwrap(),
            melds,
            forms,
            wild,
        )
    }

    #[test]
    fn validation() {
        let gb = Forms::GB;
        assert!(hand("123m", &[], gb, None)
            .unwrap_err()
            .message()
            .contains("expected 13 or 14"));
        assert!(hand("123m456p789s1112z", &[], gb, Some(34))
            .unwrap_err()
            .message()
            .contains("wild kind must be a tile 0-33"));
        let m = [Meld::pung(0).unwrap()];
        let e = hand("1m123p456p789p", &m, Forms::HUAINAN, Some(0)).unwrap_err();
        assert!(e.message().contains("wild"));
        let h = hand("123m456p789s1112z", &[], gb, None).unwrap();
        assert!(h
            .is_win()
            .unwrap_err()
            .message()
            .contains("full hand of 14"));
        let f = hand("123m456p789s11122z", &[], gb, None).unwrap();
        assert!(f
            .useful_tiles(None)
            .unwrap_err()
            .message()
            .contains("waiting hand of 13"));
    }

    #[test]
    fn wild_hands() {
        let hn = Forms::HUAINAN;
        // 123m456p789s 1z 2z and two wild 5z: a draw of 1z, 2z or a third wild completes
        // (pair + pung from the two singles and the wilds).
        let h = hand("123m456p789s1255z", &[], hn, Some(31)).unwrap();
        assert_eq!(h.wilds, 2);
        assert_eq!(h.shanten(), 0);
        assert_eq!(h.waits().unwrap(), vec![27, 28, 31]);
        let forms: Vec<_> = h.forms().map(|(f, _)| f).collect();
        assert_eq!(
            forms,
            vec![
                Form::Regular,
                Form::SevenPairs,
                Form::Shisanlang,
                Form::Jiuyao
            ]
        );
        let full = hand("123m456p789s12555z", &[], hn, Some(31)).unwrap();
        assert!(full.is_win().unwrap());
    }
}
