//! Shanten, useful tiles and waits for every hand form; wild-aware.
