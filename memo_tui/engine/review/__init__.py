"""The review queue and the answers to it: decisions, clusters, what a reviewer sees."""
