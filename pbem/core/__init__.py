"""Game-agnostic core: state, orders, events, dice, hashing, loading."""
