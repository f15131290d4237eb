"""Rendering: only this package imports rich, when a terminal view is asked for.

``formats`` names every output format and which function writes it.
"""
