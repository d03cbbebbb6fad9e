//! majiang: a Chinese mahjong rules engine.
//!
//! The pure Rust core (tiles, hands, shanten, fan evaluation, the wall, one hand's state
//! machine, built-in policies and batch simulation) has no Python types outside
//! `py`, which holds the PyO3 bindings behind the default `python` feature.

pub mod env;
pub mod error;
pub mod fan;
pub mod hand;
pub mod huainan;
pub mod options;
pub mod policy;
pub mod round;
pub mod rules;
pub mod seed;
pub mod shanten;
pub mod sim;
pub mod table;
pub mod tile;
pub mod wall;

#[cfg(feature = "python")]
mod py;

pub use error::{MjError, MjResult};
pub use hand::{Meld, MeldKind};
pub use rules::{RuleSetId, Rules};
pub use tile::{Counts, Tile};
