//! Per-player 宝 state during one hand (docs/rules/huainan.md §6.5, §8.2-8.3, §9 #1 #7 #21
//! #22, §13): 宝 drawn and discarded, the 宝吊头 state and its passes, and the passed-win lock.

use super::{DiscardWins, HuainanOptions};
use crate::shanten::wild::{self, Limit};
use crate::tile::{Counts, Tile};

/// One player's 宝 state. Every field starts at zero / false for a new hand.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BaoState {
    /// 宝 tiles that entered the hand from the wall (dealt, drawn or replacement), whether
    /// or not discarded since (§6.5).
    pub bao_drawn: u8,
    /// 宝 tiles this player discarded (飞宝).
    pub bao_discarded: u8,
    /// The waiting hand is in the 宝吊头 state.
    pub in_bdt: bool,
    /// Declined wins in the 宝吊头 state (§9 `passes`).
    pub passes: u8,
    /// The passed-win lock (D-16): no win on another player's tile until the next own draw.
    pub guo_hu: bool,
    /// This turn began with a draw from the wall (needed to count passes).
    pub drew_this_turn: bool,
}

impl BaoState {
    /// A tile entered the hand from the wall: the deal, a draw or a replacement draw.
    pub fn on_wall_tile(&mut self, t: Tile, bao: Tile) {
        if t == bao {
            self.bao_drawn += 1;
        }
    }

    /// The player draws (a normal or replacement draw) at the start of a turn: the passed-win
    /// lock ends.
    pub fn on_own_draw(&mut self) {
        self.guo_hu = false;
        self.drew_this_turn = true;
    }

    /// The player claims a discard (chi, peng or kong); their turn did not begin with a draw.
    pub fn on_claim(&mut self) {
        self.drew_this_turn = false;
    }

    /// The player discards `t`, leaving `concealed_after` (13 − 3k tiles). Updates 飞宝, the
    /// 宝吊头 state and its passes: staying in the state after a turn that began with a draw
    /// is a pass; leaving it resets the passes.
    pub fn on_discard(
        &mut self,
        t: Tile,
        bao: Tile,
        concealed_after: &Counts,
        limit: Option<&Limit>,
    ) {
        if t == bao {
            self.bao_discarded += 1;
        }
        let now = wild::is_bdt(concealed_after, bao, limit);
        if now {
            if self.in_bdt && self.drew_this_turn {
                self.passes = self.passes.saturating_add(1);
            }
        } else {
            self.passes = 0;
        }
        self.in_bdt = now;
        self.drew_this_turn = false;
    }

    /// The player declined a win on another player's tile (a discard or a robbable kong).
    pub fn on_declined_win(&mut self, o: &HuainanOptions) {
        if o.guo_hu_lock {
            self.guo_hu = true;
        }
    }

    /// Whether the rules let this player win on `discard` (§8.2, D-10, D-16), holding
    /// `concealed` before the discard is added. The shape is checked separately.
    pub fn may_win_on_discard(
        &self,
        concealed: &Counts,
        discard: Tile,
        bao: Tile,
        o: &HuainanOptions,
    ) -> bool {
        !self.guo_hu
            && o.discard_wins == DiscardWins::AllowedWithoutBao
            && discard != bao
            && !(o.discard_win_requires_no_bao && concealed[bao as usize] > 0)
    }

    /// Whether the 宝 rules let this player rob an added kong (§8.4): open to 宝 holders and
    /// to the 宝吊头 state, closed by the passed-win lock.
    pub fn may_rob_kong(&self) -> bool {
        !self.guo_hu
    }

    /// 接宝 (§9 #21): another player discarded a 宝 and this player drew three.
    pub fn may_jiebao(&self, discard: Tile, bao: Tile, o: &HuainanOptions) -> bool {
        o.jiebao && discard == bao && self.bao_drawn == 3
    }

    /// 四个宝 (§9 #22): this player drew all four 宝; declared after an own draw.
    pub fn may_sigebao(&self, o: &HuainanOptions) -> bool {
        o.sigebao && self.bao_drawn >= 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile;

    fn c(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }
    fn t(s: &str) -> Tile {
        tile::parse(s).unwrap()[0]
    }

    #[test]
    fn h4_h5_passes() {
        let o = HuainanOptions::default();
        let bao = t("5p");
        let mut s = BaoState::default();
        s.on_own_draw();
        // H4: declining the win and discarding 9p enters the state; not a pass (D-20).
        s.on_discard(t("9p"), bao, &c("5p123m456m789s234s"), None);
        assert!(s.in_bdt && s.passes == 0);
        // H5: draw 3z, decline, discard it: a pass.
        s.on_own_draw();
        s.on_discard(t("3z"), bao, &c("5p123m456m789s234s"), None);
        assert_eq!(s.passes, 1);
        // Leaving the state resets the passes.
        s.on_own_draw();
        s.on_discard(t("5p"), bao, &c("3z123m456m789s234s"), None);
        assert!(!s.in_bdt && s.passes == 0 && s.bao_discarded == 1);
        let _ = o;
    }

    #[test]
    fn discard_win_rules_and_locks() {
        let o = HuainanOptions::default();
        let bao = t("5p");
        let mut s = BaoState::default();
        assert!(s.may_win_on_discard(&c("123m456m789s234p9s"), t("9s"), bao, &o));
        // H3: holding a 宝 forbids a discard win but not robbing a kong.
        assert!(!s.may_win_on_discard(&c("123m456m789s23p9s5p"), t("9s"), bao, &o));
        assert!(s.may_rob_kong());
        // H20: a declined win locks until the next own draw.
        s.on_declined_win(&o);
        assert!(!s.may_win_on_discard(&c("123m456m789s234p9s"), t("9s"), bao, &o));
        assert!(!s.may_rob_kong());
        s.on_own_draw();
        assert!(s.may_win_on_discard(&c("123m456m789s234p9s"), t("9s"), bao, &o));
        let mut nolock = o.clone();
        nolock.guo_hu_lock = false;
        s.on_declined_win(&nolock);
        assert!(!s.guo_hu);
        let mut none = o.clone();
        none.discard_wins = DiscardWins::Never;
        assert!(!s.may_win_on_discard(&c("123m456m789s234p9s"), t("9s"), bao, &none));
    }

    #[test]
    fn h19_bao_counts() {
        let o = HuainanOptions::default();
        let bao = t("2p");
        let mut s = BaoState::default();
        for _ in 0..3 {
            s.on_wall_tile(bao, bao);
        }
        s.on_wall_tile(t("3p"), bao);
        assert!(
            s.may_jiebao(bao, bao, &o) && !s.may_jiebao(t("3p"), bao, &o) && !s.may_sigebao(&o)
        );
        s.on_wall_tile(bao, bao);
        assert!(s.may_sigebao(&o) && !s.may_jiebao(bao, bao, &o));
        s.on_claim();
        assert!(!s.drew_this_turn);
    }
}
