"""The site generators that publish the docs: detection, routes and anchor settings."""
