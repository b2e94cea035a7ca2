"""The Coatney game system shared by The Barbarossa File (1997) and The Russian Portfolio (1999)
(docs/design-coatney.md): one implementation, the differences in params.py."""
