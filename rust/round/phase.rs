//! Where a hand stands ([`Phase`]) and how the current turn began ([`TurnStart`]).

/// Where a hand stands: whose decision it waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The seat [`Round::turn`](super::Round::turn) must discard, win or declare a kong.
    Turn,
    /// A discard may be claimed; the seats in [`Round::pending`](super::Round::pending) decide.
    Claim,
    /// An added kong may be robbed; the seats in [`Round::pending`](super::Round::pending) decide.
    RobKong,
    /// The hand is over; see [`Round::result`](super::Round::result).
    Over,
}

impl Phase {
    /// `turn`, `claim`, `rob_kong` or `over`.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Turn => "turn",
            Phase::Claim => "claim",
            Phase::RobKong => "rob_kong",
            Phase::Over => "over",
        }
    }
}

/// How the current turn began.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnStart {
    /// The dealer's first turn, on the dealt tiles.
    Deal,
    /// A draw from the head (flower replacements included).
    Draw,
    /// A kong replacement from the tail (flower replacements after it included).
    Replacement,
    /// A claimed chow: no self-drawn win; no kong under `kong_lock_after_claim`.
    Chow,
    /// A claimed pung: no self-drawn win; no kong under `kong_lock_after_claim`.
    Pung,
}

impl TurnStart {
    /// True when the turn's tile came from the wall (a self-drawn win is possible).
    #[inline]
    pub fn drew(self) -> bool {
        matches!(
            self,
            TurnStart::Deal | TurnStart::Draw | TurnStart::Replacement
        )
    }
}

/// Most discards a hand can have (every tile of the wall discarded once).
pub const MAX_DISCARDS: usize = 160;
