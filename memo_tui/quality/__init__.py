"""Measuring the pass: labelled pairs, stores and kinds of real text."""
