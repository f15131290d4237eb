"""Links between corpus pages: extraction, the anchors a page has, and CG404."""
