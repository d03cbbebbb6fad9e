//! Learning environments in pure Rust: the feature planes and action space of one seat
//! ([`mod@encode`]), the oracle's features of encoding v2 ([`mod@features`]) and tables where one learning seat plays against built-in policies,
//! stepped in batches across threads ([`mod@vec`]). The Python `majiang.env` package wraps
//! them as Gymnasium and PettingZoo environments.

pub mod encode;
pub mod features;
pub mod vec;

pub use encode::{
    action_index, encode, index_action, legal_mask, ENCODING_VERSION, N_ACTIONS, N_PLANES, OBS_LEN,
};
pub use vec::{EnvSpec, EnvTable, Episode, FinishedHand, VecEnv, STAY};
