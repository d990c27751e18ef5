"""Evaluation: run fixture questions through the answer service and score the results."""
