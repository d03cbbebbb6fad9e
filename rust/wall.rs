//! The seeded wall: shuffle, dice, wall break, live and replacement ends.
