//! A built-in policy playing the rules of the observations it is given.
//!
//! A Python bot built without `rules=` plays whatever rules each observation was dealt
//! under: the Rust policy is built for those rules on first use and again when they
//! change. Built with `rules=`, it plays only those, and an observation dealt under other
//! rules raises `RuleError` instead of being played by the wrong rules.

use crate::error::MjError;
use crate::rules::Rules;
use pyo3::prelude::*;

/// A policy of type `P`, built for the rules it plays.
pub(super) struct ForRules<P> {
    /// The rules the caller asked for, if any.
    fixed: Option<Rules>,
    /// The policy, with the rules it was built for.
    built: Option<(Rules, P)>,
}

impl<P> ForRules<P> {
    /// A policy for `fixed` rules, or (None) for the rules of each observation.
    pub(super) fn new(fixed: Option<Rules>) -> Self {
        ForRules { fixed, built: None }
    }

    /// The rules the caller asked for, if any.
    pub(super) fn fixed(&self) -> Option<&Rules> {
        self.fixed.as_ref()
    }

    /// The policy for an observation dealt under `rules`, built with `make` when none was
    /// built for them yet; `RuleError` when the policy was asked for other rules. `what`
    /// names the policy in the error.
    pub(super) fn get(
        &mut self,
        what: &str,
        rules: &Rules,
        make: impl FnOnce(&Rules) -> P,
    ) -> PyResult<&mut P> {
        if let Some(f) = &self.fixed {
            if f != rules {
                return Err(MjError::rule(format!(
                    "the {what} policy was built for {} (its rules= argument), but the \
                     observation was dealt under {}: build it without rules= to play the \
                     rules of each observation",
                    f.label(),
                    rules.label()
                ))
                .into());
            }
        }
        let stale = match &self.built {
            Some((r, _)) => r != rules,
            None => true,
        };
        if stale {
            self.built = Some((rules.clone(), make(rules)));
        }
        match &mut self.built {
            Some((_, p)) => Ok(p),
            None => Err(MjError::rule(format!("the {what} policy could not be built")).into()),
        }
    }

    /// The policy built last, if any.
    pub(super) fn current(&mut self) -> Option<&mut P> {
        self.built.as_mut().map(|(_, p)| p)
    }
}
