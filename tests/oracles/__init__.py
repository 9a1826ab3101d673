"""Oracles that need no reference numbers (issue 26 item 2): generated models checked against themselves."""
