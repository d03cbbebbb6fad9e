//! The one error type of the core. Every fallible public function returns
//! [`MjResult`]; the Python bindings map each variant to a `majiang` exception.

use std::fmt;

/// What went wrong, with a message that names the offending tile, meld, count or option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MjError {
    /// Malformed input: an unknown tile, a fifth copy, a wrong tile count, a bad meld,
    /// flags that cannot all hold. Python: `majiang.InvalidHandError` (a `ValueError`).
    InvalidHand(String),
    /// The tiles are well formed but do not make a winning hand.
    /// Python: `majiang.NotWinningError` (a `ValueError`).
    NotWinning(String),
    /// An action that is not legal in the current state of a hand.
    /// Python: `majiang.IllegalActionError` (a `ValueError`).
    IllegalAction(String),
    /// An unknown rule set, option name or option value.
    /// Python: `majiang.RuleError` (a `ValueError`).
    InvalidRule(String),
    /// Any other argument out of its range: a seed, a seat, a thread or hand count, a
    /// time budget, a bot name. Python: `ValueError`.
    InvalidArgument(String),
}

impl MjError {
    /// Shorthand for [`MjError::InvalidHand`].
    pub fn hand(msg: impl Into<String>) -> Self {
        MjError::InvalidHand(msg.into())
    }
    /// Shorthand for [`MjError::InvalidRule`].
    pub fn rule(msg: impl Into<String>) -> Self {
        MjError::InvalidRule(msg.into())
    }
    /// Shorthand for [`MjError::IllegalAction`].
    pub fn action(msg: impl Into<String>) -> Self {
        MjError::IllegalAction(msg.into())
    }
    /// Shorthand for [`MjError::InvalidArgument`].
    pub fn argument(msg: impl Into<String>) -> Self {
        MjError::InvalidArgument(msg.into())
    }
    /// The message without the variant name.
    pub fn message(&self) -> &str {
        match self {
            MjError::InvalidHand(m)
            | MjError::NotWinning(m)
            | MjError::IllegalAction(m)
            | MjError::InvalidRule(m)
            | MjError::InvalidArgument(m) => m,
        }
    }
}

impl fmt::Display for MjError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for MjError {}

/// Result alias used across the core.
pub type MjResult<T> = Result<T, MjError>;
