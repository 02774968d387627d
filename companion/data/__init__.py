"""Data bundled with the companion: the demo game that ``euchre-table replay`` plays when given no file."""
