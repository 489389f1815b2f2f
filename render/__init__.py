"""Pure renderers: a view (dict) in, PNG bytes out. No Discord, no storage."""
