//! Built-in policies (bots) usable from Rust and Python.
