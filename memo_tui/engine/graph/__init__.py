"""The graph: entities, folds, passages and their links, the neighbourhood of a name."""
