//! The flow-of-play options ([`TableOptions`]): the wall, claims, kongs, declared ready,
//! settlement and the match, with the value types they take. The hand's state machine
//! (`round`) reads them; they live below it so that a rule set's definition can set them
//! without depending on the flow.

crate::str_option! {
    /// How the wall is broken (G-1, C-3). Play is the same either way (linear wall).
    pub enum BreakThrowOpt { Single = "single", Double = "double" }
}

crate::str_option! {
    /// How the opening flowers are replaced (G-2).
    pub enum FlowerMode {
        /// In passes, dealer first; a flower drawn as a replacement waits for the next pass.
        Passes = "passes",
        /// Each player replaces until done before the next starts.
        EachCompletes = "each_completes",
    }
}

crate::str_option! {
    /// After which claims a turn may not declare a kong (G-5, C-6, D-13).
    pub enum KongLock {
        /// No kong on a turn that began with a chow or a pung.
        ChiPeng = "chi_peng",
        /// Only after a chow (the literal 1998 text).
        Chi = "chi",
        /// No restriction.
        None = "none",
    }
}

crate::str_option! {
    /// Which tile an added kong (补杠) may add to an exposed pung (huainan D-12).
    pub enum AddedKongTile {
        /// The tile just drawn or one already held.
        HeldOrDrawn = "held_or_drawn",
        /// Only the tile just drawn (a normal or replacement draw).
        JustDrawn = "just_drawn",
    }
}

crate::str_option! {
    /// What the discard made after the last wall tile can be claimed for (G-4, C-8).
    pub enum LastDiscardClaims {
        /// Only a win (海底捞月).
        Win = "win",
        /// Anything (a kong is still refused: no replacement tile is left).
        Any = "any",
    }
}

crate::str_option! {
    /// Who deals the next hand.
    pub enum DealerRotation {
        /// gb: the deal passes counter-clockwise after every hand (不连庄).
        CcwEveryHand = "ccw_every_hand",
        /// classic, huainan: the dealer keeps the deal on a win or a draw; otherwise the
        /// winner deals.
        WinnerDeals = "winner_deals",
    }
}

crate::str_option! {
    /// Who deals after an exhaustive draw when the winner deals (`winner_deals`; D-2).
    pub enum DealerAfterDraw {
        /// The dealer deals again.
        Same = "same",
        /// The deal passes counter-clockwise to the dealer's right.
        Next = "next",
    }
}

crate::str_option! {
    /// Who deals the first hand.
    pub enum FirstDealer {
        /// Seat 0 (P1, sitting East).
        East = "east",
        /// Chosen at random from the match seed.
        Random = "random",
    }
}

crate::str_option! {
    /// How the prevalent wind is chosen (C-5).
    pub enum PrevalentWindMode {
        /// East for hands 1-4, South 5-8, West 9-12, North 13-16 (gb: the dealer cycle).
        ByHandIndex = "by_hand_index",
        /// Always East.
        FixedEast = "fixed_east",
    }
}

crate::str_option! {
    /// Changes of physical seat between rounds (G-6).
    pub enum SeatChange { None = "none" }
}

crate::str_option! {
    /// Payments (docs/rules/gb.md §12, C-14).
    pub enum Settlement {
        /// Self-draw: each other pays base + F. Discard win or robbed kong: the discarder
        /// (konger) pays base + F, each of the other two pays base.
        Mcr = "mcr_8_plus_fan",
        /// Self-draw: each other pays F. Discard win: the discarder pays F.
        FanTimesBase = "fan_times_base",
    }
}

crate::str_option! {
    /// What happens to a win declaration the rules reject (G-7).
    pub enum PenaltyMode {
        /// Refused (`IllegalAction`); no penalty.
        Reject = "reject",
        /// 1998 §14: 错和 (below the minimum) pays 10 to each other seat, 诈和 (not a win)
        /// 20; the seat may not win this hand; play goes on.
        Mcr1998 = "mcr_1998",
        /// B-4 (Botzone): a false declaration ends the hand; the seat pays 10 to each
        /// other seat (30 in all) and no one wins.
        Botzone = "botzone",
    }
}

crate::option_group! {
    /// Flow-of-play options: the wall, claims, kongs, ready declarations, settlement and the
    /// match. The defaults here are gb's; each rule set's definition sets its own
    /// (`rules::RuleSetDef::defaults`). Each option belongs to a group: `Flow` (every rule
    /// set), `Walls` (private walls and the opening flowers), `FanPayments` (payments and
    /// penalties priced in fans) or `Ready` (declared ready).
    pub struct TableOptions {
        /// Hands in a match (gb: 16, four rounds of four; classic C-5: 16).
        pub hands_per_match: u16 = 16 => Flow in 1..=1024,
        /// The wall holds the eight flowers (gb: 144 tiles; classic and huainan: 136). A
        /// huainan hand refuses `true` (D-1).
        pub flowers: bool = true => Flow,
        /// Stacks per side of the square wall (gb 18, classic C-2 17); display only.
        pub wall_stacks_per_side: u8 = 18 => Flow in 17..=18,
        /// G-1 / C-3 / D-3: one throw or two to break the wall.
        pub break_throw: BreakThrowOpt = BreakThrowOpt::Single => Flow,
        /// D-4: tiles kept out of play at the end of the wall (留牌): the hand is exhausted
        /// while this many tiles still stand, wherever the head and the tail meet (kong
        /// replacements still come from the tail). 0: no dead wall, every tile is drawn.
        pub reserved_tiles: u8 = 0 => Flow in 0..=90,
        /// B-1: four private walls (Botzone): each seat is dealt from and draws only from
        /// its own quarter of the wall; the hand ends when the seat about to draw has none
        /// left, and the last-tile conditions read the next seat's wall.
        pub private_walls: bool = false => Walls,
        /// G-2: how the opening flowers are replaced.
        pub initial_flower_mode: FlowerMode = FlowerMode::Passes => Walls,
        /// A discard may be claimed for a chow (吃) by the seat after the discarder; false:
        /// only for a pung, a kong or a win (tables that play without chows).
        pub chows: bool = true => Flow,
        /// G-5 / C-6 / D-13: no kong on a turn that began with these claims.
        pub kong_lock_after_claim: KongLock = KongLock::ChiPeng => Flow,
        /// D-12: which tile an added kong may use.
        pub added_kong_tile: AddedKongTile = AddedKongTile::HeldOrDrawn => Flow,
        /// D-14: a kong may be declared when no tile is left to draw. The kong stands (an
        /// added kong may first be robbed) and, with no replacement tile, the hand ends in an
        /// exhaustive draw. Default false: no kong without a replacement tile.
        pub kong_on_empty_wall: bool = false => Flow,
        /// An added kong (补杠) may be robbed (抢杠和); concealed and claimed kongs never are.
        pub rob_added_kong: bool = true => Flow,
        /// 截和 (C-7): one winner on a discard, the first counter-clockwise from the discarder.
        pub single_winner_headbump: bool = true => Flow,
        /// Every player who can rob an added kong wins (huainan); otherwise 截和 applies.
        pub multi_winner_on_rob: bool = false => Flow,
        /// G-4 / C-8: what the final discard can be claimed for.
        pub last_discard_claims: LastDiscardClaims = LastDiscardClaims::Win => Flow,
        /// Who deals next (gb: every hand counter-clockwise; classic: the winner, kept on a
        /// draw).
        pub dealer_rotation: DealerRotation = DealerRotation::CcwEveryHand => Flow,
        /// D-2: under `winner_deals`, who deals after an exhaustive draw.
        pub dealer_after_draw: DealerAfterDraw = DealerAfterDraw::Same => Flow,
        /// Who deals the first hand (gb: P1; classic: random).
        pub first_dealer: FirstDealer = FirstDealer::East => Flow,
        /// C-5: how the prevalent wind is chosen.
        pub prevalent_wind_mode: PrevalentWindMode = PrevalentWindMode::ByHandIndex => Flow,
        /// G-6: seats do not change between rounds.
        pub seat_change_between_rounds: SeatChange = SeatChange::None => Flow,
        /// §12 / C-14: the payment formula.
        pub settlement: Settlement = Settlement::Mcr => FanPayments,
        /// The base (底分) of the payment formula.
        pub base: u16 = 8 => FanPayments in 0..=1000,
        /// A dealer bonus (庄家加分): added to every payment of a win between the dealer and
        /// another seat (the dealer pays it more when it pays, and receives it more from
        /// each payer when it wins); 0 in gb and classic.
        pub dealer_bonus: u16 = 0 => FanPayments in 0..=1000,
        /// G-7: what a rejected win declaration costs.
        pub penalty_mode: PenaltyMode = PenaltyMode::Reject => FanPayments,
        /// G-8 / classic §6: ready may be declared (报听) with a discard; the hand locks.
        pub ting_enabled: bool = false => Ready,
        /// C-11: after declaring, a legal win is taken automatically.
        pub ting_auto_win: bool = true => Ready,
        /// classic §6.3: after declaring, a drawn tile that does not win is discarded
        /// automatically.
        pub ting_auto_discard: bool = true => Ready,
        /// C-10: declaring ready needs some wait that reaches the minimum fan.
        pub ting_requires_reachable_min_fan: bool = false => Ready,
    }
}
