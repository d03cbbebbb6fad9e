//! Huainan rules (docs/rules/huainan.md): the 宝 wild tiles, their special shapes, the 23 forms of
//! winning, scoring and settlement.
//!
//! - [`bao`]: the 宝 face from the indicator and where the indicator sits in the wall (§5).
//! - [`forms`]: the 23 forms as predicates over a finished hand and the facts of its win,
//!   the primary form, the multipliers and the value (§9, §10.1-10.4).
//! - [`state`]: per-player 宝 state during a hand: 宝 drawn and discarded, the 宝吊头
//!   state and its passes (偷机), the passed-win lock, who may win on a discard.
//! - [`settle`]: who pays whom, the cap, kong points, several robbers, the next dealer
//!   (§10.5-10.6, D-2).
//! - [`table`]: the hooks the round state machine calls during a Huainan hand.
//! - [`oracle`]: shanten, useful tiles, waits and wins under the D-7 / D-15 shape options.
//!
//! The exact wild-aware shape predicates the forms read (the set/pair splits, seven pairs,
//! 十三浪, 九幺 and their distances) live with the other shape searches in
//! [`crate::shanten::wild`]; the wild-aware tile efficiency of the built-in policies is
//! [`crate::policy::huainan`].
//!
//! The decisions about the flow of play are options of [`crate::round::TableOptions`],
//! shared with the other rule sets: D-1 `flowers` (huainan refuses `true`: the 宝 cycles
//! have no flowers), D-2 `dealer_rotation` and `dealer_after_draw`, D-3 `break_throw`, D-4 `reserved_tiles`, D-11
//! `last_discard_claims`, D-12 `added_kong_tile`, D-13 `kong_lock_after_claim`, D-14
//! `kong_on_empty_wall`, D-17 `rob_added_kong` and `multi_winner_on_rob` (beside the
//! Huainan `robbable_kongs`), D-28
//! `hands_per_match`. The 宝 decisions, D-5 and D-6 (the indicator) included, are
//! [`HuainanOptions`].

pub mod bao;
pub mod forms;
pub mod oracle;
pub mod settle;
pub mod state;
pub mod table;

pub use bao::{bao_for_indicator, indicator_index};
pub use forms::{score, Form, Multiplier, Score, WinFacts};
pub use state::BaoState;

crate::str_option! {
    /// Which throw counts the stacks to the 宝 indicator (D-5).
    pub enum IndicatorThrow {
        /// A second throw of two dice right after the deal.
        SeparateAfterDeal = "separate_after_deal",
        /// The first two dice thrown to break the wall; no second throw.
        BreakDice = "break_dice",
    }
}

crate::str_option! {
    /// Which end of the wall the stacks to the 宝 indicator are counted from (D-5).
    pub enum IndicatorEnd {
        /// From the tail: stack 1 is the last stack (the replacement end).
        Tail = "tail",
        /// From the head: stack 1 is the first whole stack after the deal.
        Head = "head",
    }
}

crate::str_option! {
    /// Which tile of the counted stack is turned up as the 宝 indicator (D-5).
    pub enum IndicatorTile {
        /// The upper tile.
        Upper = "upper",
        /// The lower tile.
        Lower = "lower",
    }
}

crate::str_option! {
    /// Which kongs may be robbed (D-17). A concealed kong is never shown, so it never can.
    pub enum RobbableKongs {
        /// Only an added kong (补杠), whose tile the konger drew.
        BuGang = "bu_gang",
        /// An added kong, and a kong claimed on a discard (直杠): before the claimant takes the
        /// discard, every player who may rob it wins on it (not its discarder, nor a player
        /// who passed a win on that discard).
        BuGangZhiGang = "bu_gang_zhi_gang",
    }
}

crate::str_option! {
    /// When a non-winning discard claim is allowed (D-10).
    pub enum DiscardWins {
        /// Any player holding no 宝 may win on a discard.
        AllowedWithoutBao = "allowed_without_bao",
        /// Nobody wins on a discard (only self-draw, robbing a kong and 接宝).
        Never = "none",
    }
}

crate::str_option! {
    /// What 地糊 means (D-19).
    pub enum DihuDefinition {
        /// A non-dealer wins on the dealer's first discard (the seeds).
        DealerFirstDiscard = "dealer_first_discard",
        /// A non-dealer's self-drawn win on their first draw.
        FirstSelfDraw = "first_self_draw",
    }
}

crate::str_option! {
    /// How form values and multipliers combine (D-25).
    pub enum ScoringMode {
        /// `base × form × Π factors`.
        Multiplicative = "multiplicative",
        /// `base × form × (1 + Σ (factor − 1))`.
        Additive = "additive",
    }
}

crate::option_group! {
    /// Huainan options: every decision D-n of docs/rules/huainan.md with the documented default. They
    /// belong to huainan only; the ranges keep every payment, and so the 32-bit scores of
    /// a match, far from overflow (at most 3 × `cap` plus kong points per seat and hand).
    pub struct HuainanOptions {
        /// D-5: which throw counts the stacks to the 宝 indicator.
        pub bao_indicator_throw: IndicatorThrow = IndicatorThrow::SeparateAfterDeal => Bao,
        /// D-5: which end of the wall the stacks are counted from.
        pub bao_indicator_count_from: IndicatorEnd = IndicatorEnd::Tail => Bao,
        /// D-5: which tile of the counted stack is turned up.
        pub bao_indicator_tile: IndicatorTile = IndicatorTile::Upper => Bao,
        /// D-6: the indicator stays in the wall face up and is drawn as an ordinary tile;
        /// false sets it aside, out of play for the whole hand.
        pub bao_indicator_stays_in_wall: bool = true => Bao,
        /// D-17: which kongs may be robbed (with `rob_added_kong` true for the added kong).
        pub robbable_kongs: RobbableKongs = RobbableKongs::BuGang => Bao,
        /// D-7: a 宝 is wild inside 十三浪.
        pub bao_wild_in_13lang: bool = true => Bao,
        /// D-7: a 宝 is wild inside 九幺.
        pub bao_wild_in_jiuyao: bool = true => Bao,
        /// D-7: a wild may stand for a fifth copy of a face.
        pub bao_wild_fifth_copy: bool = true => Bao,
        /// D-8: a 宝 may go into a declared meld.
        pub bao_in_melds: bool = false => Bao,
        /// D-9: a discarded 宝 may be claimed for chi, peng or kong.
        pub discarded_bao_claimable: bool = false => Bao,
        /// D-10: who may win on a discard.
        pub discard_wins: DiscardWins = DiscardWins::AllowedWithoutBao => Bao,
        /// D-10: holding a 宝 forbids a discard win.
        pub discard_win_requires_no_bao: bool = true => Bao,
        /// D-10: a plain (value 1) hand may win on a discard; false allows only forms worth 2+.
        pub plain_discard_win: bool = true => Bao,
        /// D-15: 九幺 may include declared pungs and kongs of terminals and honours.
        pub jiuyao_allows_pung_melds: bool = true => Bao,
        /// D-16: a declined discard win or kong robbery locks discard wins until the next draw.
        pub guo_hu_lock: bool = true => Bao,
        /// D-18: kong points are paid on an exhaustive draw.
        pub kong_points_on_draw: bool = false => Bao,
        /// D-19: what 地糊 means.
        pub dihu_definition: DihuDefinition = DihuDefinition::DealerFirstDiscard => Bao,
        /// D-20: 偷机 doubles once per pass instead of once.
        pub touji_per_pass: bool = false => Bao,
        /// D-21: 七星九幺 needs all seven honours.
        pub qixing_jiuyao_all_honors: bool = true => Bao,
        /// D-22: 接宝 (catching the fourth 宝 with three drawn) is an instant win.
        pub jiebao: bool = true => Bao,
        /// D-23: 四个宝 (all four 宝 drawn) is an instant win.
        pub sigebao: bool = true => Bao,
        /// D-25: how form values and multipliers combine.
        pub scoring_mode: ScoringMode = ScoringMode::Multiplicative => Bao,
        /// D-25: base points (底分) of a Huainan win.
        pub base_points: u32 = 1 => Bao in 1..=1000,
        /// D-24: 平糊, the fallback basic form.
        pub form_pinghu: u32 = 1 => Bao in 1..=1000,
        /// §10.1: 平糊自摸.
        pub form_pinghu_zimo: u32 = 2 => Bao in 1..=1000,
        /// §10.1: 碰碰糊.
        pub form_pengpeng: u32 = 2 => Bao in 1..=1000,
        /// §10.1: 清碰碰糊.
        pub form_qing_pengpeng: u32 = 4 => Bao in 1..=1000,
        /// §10.1: 宝吊头.
        pub form_baodiaotou: u32 = 2 => Bao in 1..=1000,
        /// §10.1: 宝吊宝.
        pub form_baodiaobao: u32 = 4 => Bao in 1..=1000,
        /// §10.1: 宝吊无宝.
        pub form_baodiao_wubao: u32 = 4 => Bao in 1..=1000,
        /// §10.1: 七对.
        pub form_qidui: u32 = 4 => Bao in 1..=1000,
        /// §10.1: 清七对.
        pub form_qing_qidui: u32 = 8 => Bao in 1..=1000,
        /// §10.1: 豪华七对.
        pub form_haohua_qidui: u32 = 8 => Bao in 1..=1000,
        /// §10.1: 清豪华七对.
        pub form_qing_haohua_qidui: u32 = 16 => Bao in 1..=1000,
        /// §10.1: 十三浪.
        pub form_shisanlang: u32 = 2 => Bao in 1..=1000,
        /// §10.1: 七星十三浪.
        pub form_qixing_shisanlang: u32 = 4 => Bao in 1..=1000,
        /// §10.1: 九幺.
        pub form_jiuyao: u32 = 4 => Bao in 1..=1000,
        /// §10.1: 七星九幺.
        pub form_qixing_jiuyao: u32 = 8 => Bao in 1..=1000,
        /// §10.2: 偷机 factor.
        pub mult_touji: u32 = 2 => Bao in 1..=100,
        /// §10.2: 天糊 factor.
        pub mult_tianhu: u32 = 8 => Bao in 1..=100,
        /// §10.2: 地糊 factor.
        pub mult_dihu: u32 = 8 => Bao in 1..=100,
        /// §10.2: 杠开 factor.
        pub mult_gangkai: u32 = 2 => Bao in 1..=100,
        /// §10.2: 抢杠 factor.
        pub mult_qianggang: u32 = 2 => Bao in 1..=100,
        /// §10.2: 单吊 factor.
        pub mult_dandiao: u32 = 2 => Bao in 1..=100,
        /// §10.2: 飞宝 factor for each 宝 the winner discarded.
        pub mult_feibao_each: u32 = 2 => Bao in 1..=100,
        /// §10.3: 四个宝, paid by each of the other three.
        pub special_sigebao: u32 = 16 => Bao in 1..=100000,
        /// §10.3: 接宝, paid by the discarder of the 宝.
        pub special_jiebao: u32 = 16 => Bao in 1..=100000,
        /// §10.4: most one payer pays one winner. An uncapped table is `cap = 100000`, the
        /// largest value: an unbounded chain of factors would outgrow the 32-bit scores.
        pub cap: u32 = 64 => Bao in 1..=100000,
        /// D-26: factor on payments the dealer makes or receives.
        pub dealer_multiplier: u32 = 1 => Bao in 1..=16,
        /// D-27: points each other player pays for an exposed kong (直杠 or 补杠) kept.
        pub kong_points_ming: u32 = 1 => Bao in 0..=1000,
        /// D-27: points each other player pays for a concealed kong kept.
        pub kong_points_an: u32 = 2 => Bao in 0..=1000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{OptValue, OptionGroup, Rules};

    #[test]
    fn every_decision_is_an_option_with_the_spec_default() {
        let o = HuainanOptions::default();
        let names: Vec<&str> = o.list().iter().map(|(k, _)| *k).collect();
        for key in [
            "bao_wild_in_13lang",
            "bao_wild_fifth_copy",
            "discard_wins",
            "plain_discard_win",
            "guo_hu_lock",
            "dihu_definition",
            "touji_per_pass",
            "cap",
            "base_points",
        ] {
            assert!(names.contains(&key), "{key} missing");
        }
        assert_eq!(o.cap, 64);
        let mut r = Rules::named("huainan").unwrap();
        r.set("discard_wins", &OptValue::Str("none".into()))
            .unwrap();
        assert_eq!(r.huainan.discard_wins, DiscardWins::Never);
        assert!(r
            .set("discard_wins", &OptValue::Str("sometimes".into()))
            .is_err());
    }
}

#[cfg(test)]
mod brute;

#[cfg(test)]
mod round_tests;
