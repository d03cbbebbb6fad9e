//! The oracle's hand questions (`shanten`, `shanten_forms`, `useful_tiles`, `waits`,
//! `is_win`) for Huainan under every shape option of docs/rules/huainan.md §6.1 and §8.1: D-7
//! (`bao_wild_in_13lang`, `bao_wild_in_jiuyao`, `bao_wild_fifth_copy`) and D-15
//! (`jiuyao_allows_pung_melds`).
//!
//! With the default options [`Oracle::Plain`] answers through the shanten engine's
//! checked hand as it is. Otherwise [`Oracle::Options`] reads each form's replacement
//! number under the options and keeps the engine's definitions (`shanten = d − W − 1` per
//! form, the minimum over the forms; a useful tile lowers it; a wait completes the hand):
//!
//! - **basic form**: with fifth copies forbidden, the nearest complete hand may hold at most
//!   `4 − melded` copies of a face counting the faces the 宝 read, which is the engine's
//!   four-copy-limited distance of the natural tiles; the 宝 then fill missing tiles.
//! - **seven pairs**: unchanged (a fresh face always has room; a face of four is two pairs).
//! - **十三浪 / 九幺** with the 宝 not wild there: the 宝 count as their own face, so the
//!   form's distance is taken over every concealed tile and no tile is a wild (`W = 0`).
//! - **九幺** without pung melds: any meld rules it out.

use super::HuainanOptions;
use crate::error::{MjError, MjResult};
use crate::hand::Meld;
use crate::shanten::wild;
use crate::shanten::{checked::Hand, regular, special, Form, Forms};
use crate::tile::{Counts, Tile};

pub use crate::shanten::wild::ShapeOptions;

impl ShapeOptions {
    /// The shape switches of the Huainan options `o` (D-7, D-15).
    pub fn of(o: &HuainanOptions) -> Self {
        ShapeOptions {
            wild_in_13lang: o.bao_wild_in_13lang,
            wild_in_jiuyao: o.bao_wild_in_jiuyao,
            fifth_copy: o.bao_wild_fifth_copy,
            jiuyao_pung_melds: o.jiuyao_allows_pung_melds,
        }
    }
}

const FORMS: [Form; 4] = [
    Form::Regular,
    Form::SevenPairs,
    Form::Shisanlang,
    Form::Jiuyao,
];

/// A validated Huainan hand read under non-default shape options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionHand {
    /// The engine's validated hand (wilds taken out of `counts`).
    pub hand: Hand,
    /// Every concealed tile, the 宝 at their own face.
    pub all: Counts,
    /// The options.
    pub opts: ShapeOptions,
}

#[inline]
fn to_shanten(d: u8, w: u8) -> i8 {
    (d as i16 - w as i16 - 1).clamp(-1, 100) as i8
}

/// Shanten of one Huainan form under `o` for naturals `nat` (the 宝 taken out), `w` 宝,
/// every concealed tile `all` (the 宝 at their own face) and `used` copies in `k` melds
/// (`None` when the form cannot apply).
pub fn form_shanten(
    f: Form,
    nat: &Counts,
    w: u8,
    all: &Counts,
    used: &Counts,
    k: u8,
    o: &ShapeOptions,
) -> Option<i8> {
    match f {
        Form::Regular => {
            let d = regular::distance(nat, used, k, if o.fifth_copy { w } else { 0 });
            Some(to_shanten(d, w))
        }
        Form::SevenPairs => (k == 0).then(|| to_shanten(special::seven_pairs(nat), w)),
        Form::Shisanlang => (k == 0).then(|| {
            if o.wild_in_13lang {
                to_shanten(wild::shisanlang_distance(nat), w)
            } else {
                to_shanten(wild::shisanlang_distance(all), 0)
            }
        }),
        Form::Jiuyao => {
            let (c, ww) = if o.wild_in_jiuyao { (nat, w) } else { (all, 0) };
            wild::jiuyao_distance(c, used, k, o.jiuyao_pung_melds).map(|d| to_shanten(d, ww))
        }
        _ => None,
    }
}

/// Shanten over the four Huainan forms under `o` (the arguments of [`form_shanten`]),
/// without the engine's wild-draw correction: what the policies compare.
pub fn shanten_parts(
    nat: &Counts,
    w: u8,
    all: &Counts,
    used: &Counts,
    k: u8,
    o: &ShapeOptions,
) -> i8 {
    FORMS
        .iter()
        .filter_map(|&f| form_shanten(f, nat, w, all, used, k, o))
        .min()
        .unwrap_or(i8::MAX)
}

impl OptionHand {
    /// Shanten of one form for naturals `nat`, `w` wilds and all tiles `all` (`None` when
    /// the form cannot apply).
    fn form_shanten(&self, f: Form, nat: &Counts, w: u8, all: &Counts) -> Option<i8> {
        form_shanten(
            f,
            nat,
            w,
            all,
            &self.hand.used,
            self.hand.n_melds,
            &self.opts,
        )
    }

    /// Shanten over `forms` of the hand plus `extra` (a drawn tile), before the wild-draw
    /// correction.
    fn raw(&self, forms: &[Form], extra: Option<Tile>) -> i8 {
        let (mut nat, mut w, mut all) = (self.hand.counts, self.hand.wilds, self.all);
        if let Some(t) = extra {
            all[t as usize] += 1;
            if Some(t) == self.hand.wild {
                w += 1;
            } else {
                nat[t as usize] += 1;
            }
        }
        forms
            .iter()
            .filter_map(|&f| self.form_shanten(f, &nat, w, &all))
            .min()
            .unwrap_or(i8::MAX)
    }

    /// True if a copy of `t` may still be drawn (not all four in the hand and its melds).
    fn room(&self, t: Tile) -> bool {
        self.all[t as usize] + self.hand.used[t as usize] < 4
    }

    /// Shanten over the Huainan forms (-1 = complete). A waiting hand that a drawn 宝
    /// completes is ready (0), as in the engine.
    pub fn shanten(&self) -> i8 {
        let s = self.raw(&FORMS, None);
        if s > 0 && !self.hand.full {
            if let Some(b) = self.hand.wild {
                if self.room(b) && self.raw(&FORMS, Some(b)) == -1 {
                    return 0;
                }
            }
        }
        s
    }

    /// Shanten of each form that can apply, in [`Form::ALL`] order.
    pub fn forms(&self) -> Vec<(Form, i8)> {
        let (nat, w, all) = (&self.hand.counts, self.hand.wilds, &self.all);
        FORMS
            .iter()
            .filter_map(|&f| self.form_shanten(f, nat, w, all).map(|s| (f, s)))
            .collect()
    }

    fn require_waiting(&self, what: &str) -> MjResult<()> {
        if self.hand.full {
            let n = 13 - 3 * self.hand.n_melds as usize;
            return Err(MjError::hand(format!(
                "{what} takes a waiting hand of {n} tiles with {} meld(s), got {}",
                self.hand.n_melds,
                n + 1
            )));
        }
        Ok(())
    }

    /// The kinds whose draw lowers the shanten over all forms (or over `form` alone),
    /// sorted. Waiting hands only.
    pub fn useful_tiles(&self, form: Option<Form>) -> MjResult<Vec<Tile>> {
        self.require_waiting("useful_tiles")?;
        let one;
        let forms: &[Form] = match form {
            Some(f) => {
                if !FORMS.contains(&f) {
                    return Err(MjError::hand(format!(
                        "the form {} is not part of this rule set",
                        f.as_str()
                    )));
                }
                let (nat, w, all) = (&self.hand.counts, self.hand.wilds, &self.all);
                if self.form_shanten(f, nat, w, all).is_none() {
                    return Err(MjError::hand(format!(
                        "the form {} cannot apply with {} meld(s)",
                        f.as_str(),
                        self.hand.n_melds
                    )));
                }
                one = [f];
                &one
            }
            None => &FORMS,
        };
        let now = self.raw(forms, None);
        Ok((0..34u8)
            .filter(|&t| self.room(t) && self.raw(forms, Some(t)) < now)
            .collect())
    }

    /// The kinds that complete the hand, sorted. Waiting hands only.
    pub fn waits(&self) -> MjResult<Vec<Tile>> {
        self.require_waiting("waits")?;
        Ok((0..34u8)
            .filter(|&t| self.room(t) && self.raw(&FORMS, Some(t)) == -1)
            .collect())
    }

    /// True if the full hand is complete in a Huainan form under the options.
    pub fn is_win(&self) -> MjResult<bool> {
        if !self.hand.full {
            let n = 14 - 3 * self.hand.n_melds as usize;
            return Err(MjError::hand(format!(
                "is_win takes a full hand of {n} tiles with {} meld(s), got {}",
                self.hand.n_melds,
                n - 1
            )));
        }
        Ok(self.raw(&FORMS, None) == -1)
    }
}

/// The oracle's view of one hand: the engine's checked hand, or a Huainan hand under
/// non-default shape options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oracle {
    /// Any rule set with its default shapes.
    Plain(Hand),
    /// Huainan with some shape option changed.
    Options(OptionHand),
}

impl Oracle {
    /// Validates `concealed` and `melds` (as [`Hand::new`]) to be read over `forms`, under
    /// the 宝 shape options `opts` (`None`: a rule set without them, or their defaults).
    pub fn new(
        concealed: &Counts,
        melds: &[Meld],
        forms: Forms,
        wild: Option<Tile>,
        opts: Option<&HuainanOptions>,
    ) -> MjResult<Oracle> {
        let hand = Hand::new(concealed, melds, forms, wild)?;
        let shape = opts.map(ShapeOptions::of);
        Ok(match shape {
            Some(o) if !o.is_default() => {
                debug_assert!(hand.forms == Forms::HUAINAN);
                Oracle::Options(OptionHand {
                    hand,
                    all: *concealed,
                    opts: o,
                })
            }
            _ => Oracle::Plain(hand),
        })
    }

    /// Shanten over the rule set's forms (-1 = complete).
    pub fn shanten(&self) -> i8 {
        match self {
            Oracle::Plain(h) => h.shanten(),
            Oracle::Options(h) => h.shanten(),
        }
    }

    /// Shanten of each form that can apply.
    pub fn forms(&self) -> Vec<(Form, i8)> {
        match self {
            Oracle::Plain(h) => h.forms().collect(),
            Oracle::Options(h) => h.forms(),
        }
    }

    /// Kinds whose draw lowers the shanten (over all forms, or `form` alone).
    pub fn useful_tiles(&self, form: Option<Form>) -> MjResult<Vec<Tile>> {
        match self {
            Oracle::Plain(h) => h.useful_tiles(form),
            Oracle::Options(h) => h.useful_tiles(form),
        }
    }

    /// Kinds that complete the hand.
    pub fn waits(&self) -> MjResult<Vec<Tile>> {
        match self {
            Oracle::Plain(h) => h.waits(),
            Oracle::Options(h) => h.waits(),
        }
    }

    /// [`Oracle::useful_tiles`] as a bit mask (bit `t` for kind `t`).
    pub fn useful_mask(&self, form: Option<Form>) -> MjResult<u64> {
        match self {
            Oracle::Plain(h) => h.useful_mask(form),
            Oracle::Options(h) => Ok(h.useful_tiles(form)?.iter().fold(0, |m, &t| m | 1 << t)),
        }
    }

    /// [`Oracle::waits`] as a bit mask (bit `t` for kind `t`).
    pub fn waits_mask(&self) -> MjResult<u64> {
        match self {
            Oracle::Plain(h) => h.waits_mask(),
            Oracle::Options(h) => Ok(h.waits()?.iter().fold(0, |m, &t| m | 1 << t)),
        }
    }

    /// True if the full hand is complete.
    pub fn is_win(&self) -> MjResult<bool> {
        match self {
            Oracle::Plain(h) => h.is_win(),
            Oracle::Options(h) => h.is_win(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shanten::Forms;
    use crate::tile;

    fn c(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }
    fn t(s: &str) -> Tile {
        tile::parse(s).unwrap()[0]
    }

    #[test]
    fn the_default_options_read_shapes_as_the_engine_does() {
        let d = HuainanOptions::default();
        assert!(ShapeOptions::of(&d).is_default());
        let no_fifth = HuainanOptions {
            bao_wild_fifth_copy: false,
            ..d
        };
        assert!(!ShapeOptions::of(&no_fifth).is_default());
    }

    fn oracle(s: &str, melds: &[Meld], wild: &str, o: &HuainanOptions) -> Oracle {
        Oracle::new(&c(s), melds, Forms::HUAINAN, Some(t(wild)), Some(o)).unwrap()
    }

    /// Every answer agrees with the exact predicate of [`wild::is_win`] on small random
    /// hands near the win boundary, under each option setting.
    #[test]
    fn answers_agree_with_the_shape_predicates() {
        let settings = [
            HuainanOptions {
                bao_wild_in_13lang: false,
                ..Default::default()
            },
            HuainanOptions {
                bao_wild_in_jiuyao: false,
                ..Default::default()
            },
            HuainanOptions {
                bao_wild_fifth_copy: false,
                ..Default::default()
            },
            HuainanOptions {
                jiuyao_allows_pung_melds: false,
                bao_wild_fifth_copy: false,
                ..Default::default()
            },
        ];
        let mut rng = crate::wall::Rng::new(17);
        let mut wins = 0;
        for o in &settings {
            for _ in 0..1500 {
                let bao = rng.below(34) as Tile;
                let mut h = [0u8; 34];
                let mut n = 0;
                while n < 14 {
                    let x = if rng.below(4) == 0 {
                        bao
                    } else {
                        rng.below(34) as Tile
                    };
                    let x = if rng.below(2) == 0 && x < 27 {
                        x - x % 9 + (x % 9).min(2) * 3
                    } else {
                        x
                    };
                    if h[x as usize] < 4 {
                        h[x as usize] += 1;
                        n += 1;
                    }
                }
                let hand = Hand::new(&h, &[], Forms::HUAINAN, Some(bao)).unwrap();
                let oh = OptionHand {
                    hand,
                    all: h,
                    opts: ShapeOptions::of(o),
                };
                let want = wild::is_win(&h, &[], Some(bao), &ShapeOptions::of(o));
                assert_eq!(
                    oh.is_win().unwrap(),
                    want,
                    "{} bao {}",
                    tile::format_counts(&h),
                    bao
                );
                wins += usize::from(want);
            }
        }
        assert!(wins > 0);
    }

    #[test]
    fn each_option_changes_the_answers() {
        let d = HuainanOptions::default();
        // 十三浪 with 2m as 9s: only while the 宝 is wild there.
        let no13 = HuainanOptions {
            bao_wild_in_13lang: false,
            ..Default::default()
        };
        assert!(oracle("147m258p36s2m12345z", &[], "2m", &d)
            .is_win()
            .unwrap());
        assert!(!oracle("147m258p36s2m12345z", &[], "2m", &no13)
            .is_win()
            .unwrap());
        // A 宝 that is a terminal still counts as itself in 九幺.
        let noj = HuainanOptions {
            bao_wild_in_jiuyao: false,
            ..Default::default()
        };
        assert!(!oracle("119m19p19s123456z5s", &[], "5s", &noj)
            .is_win()
            .unwrap());
        assert!(oracle("119m19p19s123456z1z", &[], "1z", &noj)
            .is_win()
            .unwrap());
        assert_eq!(
            oracle("119m19p19s123456z", &[], "5s", &noj)
                .waits()
                .unwrap(),
            tile::TERMINALS_AND_HONORS.to_vec()
        );
        // The fourth 5p beside a pung of 5p: a 宝 may not read as a fifth 5p.
        let no5 = HuainanOptions {
            bao_wild_fifth_copy: false,
            ..Default::default()
        };
        let four = [
            Meld::pung(t("5p")).unwrap(),
            Meld::pung(t("6p")).unwrap(),
            Meld::chow(t("2m")).unwrap(),
            Meld::chow(t("5s")).unwrap(),
        ];
        assert_eq!(
            oracle("5p", &four, "6z", &d).waits().unwrap(),
            vec![t("6z")]
        );
        assert_eq!(
            oracle("5p", &four, "6z", &no5).waits().unwrap(),
            Vec::<Tile>::new()
        );
        assert_eq!(oracle("5p", &four, "6z", &no5).shanten(), 1);
        // 九幺 with a pung meld only under D-15.
        let nop = HuainanOptions {
            jiuyao_allows_pung_melds: false,
            ..Default::default()
        };
        let m = [Meld::pung(t("1z")).unwrap()];
        assert!(oracle("119m19p19s2344z", &m, "5p", &d).is_win().unwrap());
        assert!(!oracle("119m19p19s2344z", &m, "5p", &nop).is_win().unwrap());
        assert!(oracle("119m19p19s2344z", &m, "5p", &nop)
            .forms()
            .iter()
            .all(|(f, _)| *f != Form::Jiuyao));
        // Same answers as the engine when only a non-shape option changed.
        let plain = Oracle::new(
            &c("123m456p789s1255z"),
            &[],
            Forms::HUAINAN,
            Some(t("5z")),
            Some(&d),
        )
        .unwrap();
        assert!(matches!(plain, Oracle::Plain(_)));
    }
}
