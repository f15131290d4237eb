"""Rendering. Only this package imports rich, and only when a terminal view is asked for.

``formats`` names every output format and which function writes it.
"""
