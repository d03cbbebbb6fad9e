//! Parallel batch simulation of whole hands.
