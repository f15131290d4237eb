"""Read a site generator's config as data (never executed) into anchor settings.

The settings are a small JSON-able dict (``flavour``, ``variant``,
``separator``, ``attributes``, ``liquid``, ``folder``, ``markdown``: the
``sites.model.MARKDOWN_FEATURES`` on), cached by
``sites``. A config that cannot be read as its format is no site: a
``_config.yml`` or ``config.toml`` of another tool is common.
"""

from __future__ import annotations

import json
import posixpath
import re
import sys
from collections.abc import Callable
from typing import Any

from chunkgate.core.regex import lazy
from chunkgate.sites.sphinx import conf_settings, publishes_markdown

Settings = dict[str, Any]
Reader = Callable[[str], "bytes | None"]


def settings(path: str, raw: bytes, read: Reader) -> Settings | None:
    name = path.rpartition("/")[2]
    if name.startswith("mkdocs."):
        return _mkdocs(path, raw, read)
    if name == "zensical.toml":
        return _zensical(raw)
    if name == "conf.py":
        return _sphinx(raw)
    if name == "_config.yml":
        return _jekyll(raw)
    if path.rpartition("/")[0].endswith(".vitepress") and not name.endswith(".toml"):
        return vitepress(raw)
    if name.startswith(("hugo.", "config.")):
        return _hugo(name, raw)
    if name.startswith("docusaurus.config"):
        return {"flavour": "docusaurus"}
    if name.startswith("astro.config"):
        return {"flavour": "starlight", "attributes": False}
    return None


_SRC_DIR = lazy(r"""^[ \t]*srcDir[ \t]*:[ \t]*['"`]([^'"`\n]+)['"`]""", re.M)


def vitepress_source(raw: bytes) -> str:
    """A VitePress config's ``srcDir`` relative to the folder holding ``.vitepress``, read
    from its text (it is code, never run): "" when it is not a plain string."""
    found = _SRC_DIR.search(raw.decode("utf-8", "replace"))
    folder = posixpath.normpath(found.group(1)) if found else "."
    return "" if folder == "." or folder.startswith("..") else folder.strip("/")


def vitepress(raw: bytes) -> Settings:
    return {"flavour": "vitepress", "folder": posixpath.join("..", vitepress_source(raw))}


def load_yaml(raw: bytes) -> Any:
    """YAML with every tag it does not know (``!!python/name:...``, ``!ENV``) read as
    ``{"!tag": tag, "value": ...}``: MkDocs configs name Python objects by tag."""
    import yaml  # deferred: PyYAML's import costs a hook run more than the rest

    base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc]
        pass

    def tagged(loader: Any, suffix: str, node: Any) -> dict[str, Any]:
        if isinstance(node, yaml.MappingNode):
            value: Any = loader.construct_mapping(node, deep=True)
        elif isinstance(node, yaml.SequenceNode):
            value = loader.construct_sequence(node, deep=True)
        else:
            value = loader.construct_scalar(node)
        return {"!tag": node.tag, "value": value}

    Loader.add_multi_constructor("", tagged)
    try:
        return yaml.load(raw, Loader=Loader)  # a SafeLoader subclass
    except (yaml.YAMLError, UnicodeDecodeError):
        return None


def load_toml(raw: bytes) -> dict[str, Any] | None:
    """A TOML file's table; None when it is not TOML."""
    if sys.version_info >= (3, 11):
        import tomllib  # deferred: only a TOML config needs it
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None


def _items(extensions: Any) -> dict[str, Any]:
    """MkDocs' ``markdown_extensions``: a list of names or one-key mappings, or a mapping."""
    out: dict[str, Any] = {}
    if isinstance(extensions, dict):
        return {str(k): v for k, v in extensions.items()}
    for item in extensions if isinstance(extensions, list) else ():
        if isinstance(item, str):
            out[item] = None
        elif isinstance(item, dict):
            out.update({str(k): v for k, v in item.items()})
    return out


def _short(name: str) -> str:
    return name.removeprefix("markdown.extensions.")


def _mkdocs(path: str, raw: bytes, read: Reader) -> Settings | None:
    data = load_yaml(raw)
    if not isinstance(data, dict):
        return None
    extensions = _items(data.get("markdown_extensions"))
    parent = data.get("INHERIT")
    found: Settings = {}
    if isinstance(parent, str) and "markdown_extensions" not in data:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(path), parent))
        parent_raw = None if target.startswith("../") else read(target)
        inherited = load_yaml(parent_raw) if parent_raw else None
        if isinstance(inherited, dict):
            extensions = _items(inherited.get("markdown_extensions"))
        found["INHERIT"] = target
    found.update(_python_markdown(data, extensions))
    return found


def _python_markdown(data: dict[str, Any], extensions: dict[str, Any]) -> Settings:
    """The settings of an MkDocs or Zensical project (``data``) with these extensions."""
    names = {_short(name) for name in extensions}
    toc = next((v for k, v in extensions.items() if _short(k) == "toc"), None)
    toc = toc if isinstance(toc, dict) else {}
    plugins = data.get("plugins")
    plugin_names = set(_items(plugins)) if plugins is not None else set()
    docs_dir = data.get("docs_dir", "docs")
    extra = bool(names & {"extra", "pymdownx.extra"})  # footnotes and attr_list among others
    return {
        "flavour": "mkdocs",
        "variant": _slugify(toc.get("slugify")),
        "separator": str(toc.get("separator", "-")),
        "attributes": extra or "attr_list" in names,
        "liquid": bool(plugin_names & {"macros", "mkdocs-macros"}),
        "folder": docs_dir if isinstance(docs_dir, str) else "docs",
        "markdown": sorted(
            feature
            for feature, extension in _MKDOCS_FEATURES.items()
            if extension in names or (feature == "footnotes" and extra)
        ),
    }


# What Zensical enables when its config names no Markdown extension (zensical/config.py's
# DEFAULT_MARKDOWN_EXTENSIONS; of them, what changes anchors, chunks or links; its ``toc``
# has MkDocs' default slugify).
_ZENSICAL_DEFAULT_EXTENSIONS: dict[str, Any] = {
    name: {}
    for name in (
        "admonition",
        "attr_list",
        "footnotes",
        "toc",
        "pymdownx.details",
        "pymdownx.tabbed",
    )
}


def _zensical(raw: bytes) -> Settings | None:
    """``zensical.toml``: MkDocs' settings in its ``[project]`` table. A dotted TOML table
    (``[project.markdown_extensions.pymdownx.tabbed]``) nests, so extension names are
    joined back; ``toc.slugify`` is a table naming the function
    (``{object = "pymdownx.slugs.slugify", kwds = {...}}``)."""
    project = (load_toml(raw) or {}).get("project")
    if not isinstance(project, dict):
        return None
    table = project.get("markdown_extensions")
    extensions = _flatten(table) if isinstance(table, dict) else _ZENSICAL_DEFAULT_EXTENSIONS
    toc = extensions.get("toc")
    toc = toc if isinstance(toc, dict) else {}
    slugify = toc.get("slugify")
    if isinstance(slugify, dict):
        target = slugify.get("object", "pymdownx.slugs.slugify")
        tag = f"tag:yaml.org,2002:python/object/apply:{target}"
        toc = {**toc, "slugify": {"!tag": tag, "value": {"kwds": slugify.get("kwds", {})}}}
        extensions = {**extensions, "toc": toc}
    return _python_markdown(project, extensions)


_NAMESPACES = ("pymdownx", "zensical", "zensical.extensions", "markdown", "markdown.extensions")


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"pymdownx": {"tabbed": {...}}}`` as ``{"pymdownx.tabbed": {...}}``: a key is an
    extension when it is a module Python-Markdown knows by that name (``toc``), or when
    its value holds settings rather than more extensions (the leaves)."""
    found: dict[str, Any] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value and name in _NAMESPACES:
            found.update(_flatten(value, f"{name}."))
        else:
            found[name] = value
    return found


# The ``MARKDOWN_FEATURES`` Python-Markdown has when an extension is listed (Material
# turns none on by itself: its documentation lists them for mkdocs.yml).
_MKDOCS_FEATURES = {
    "admonition": "admonition",
    "details": "pymdownx.details",
    "tabbed": "pymdownx.tabbed",
    "footnotes": "footnotes",
}
_PYMDOWNX_KEYS = {"case": "none", "normalize": "NFC", "percent_encode": False}


def _slugify(value: Any) -> str:
    """The toc variant of a ``slugify:`` value (a ``!!python/...`` tag read as data)."""
    if not isinstance(value, dict) or "!tag" not in value:
        return "toc"
    tag = str(value["!tag"]).rpartition("python/")[2]
    kind, _, target = tag.partition(":")
    if target.endswith("toc.slugify_unicode"):
        return "toc-unicode"
    if target == "pymdownx.slugs.slugify" and kind == "object/apply":
        arguments = value.get("value")
        kwds = arguments.get("kwds", {}) if isinstance(arguments, dict) else {}
        kwds = kwds if isinstance(kwds, dict) else {}
        parts = []
        for key, default in _PYMDOWNX_KEYS.items():
            setting = kwds.get(key, default)
            parts.append(f"{key}={int(setting) if isinstance(setting, bool) else setting}")
        return "pymdownx:" + ",".join(parts)
    return "toc"  # the default, or a slugify chunkgate does not know


def _sphinx(raw: bytes) -> Settings | None:
    found = conf_settings(raw)
    if found is None or not publishes_markdown(found):
        return None
    depth = found.get("myst_heading_anchors")
    depth = depth if isinstance(depth, int) and not isinstance(depth, bool) else 0
    enabled = found.get("myst_enable_extensions")
    quotes = isinstance(enabled, list | tuple | set) and "smartquotes" in enabled
    variant = f"{depth}+smartquotes" if quotes else str(depth)
    return {"flavour": "sphinx", "variant": variant, "attributes": False}


def _jekyll(raw: bytes) -> Settings | None:
    data = load_yaml(raw)
    if not isinstance(data, dict):
        return None
    renderer = str(data.get("markdown", "kramdown")).lower()
    kramdown = data.get("kramdown")
    kramdown = kramdown if isinstance(kramdown, dict) else {}
    if renderer != "kramdown":
        # jekyll-commonmark-ghpages and friends give GitHub's anchors.
        return {"flavour": "github", "liquid": True}
    parser = str(kramdown.get("input", "GFM"))
    return {
        "flavour": "kramdown",
        "variant": "kramdown" if parser.lower() == "kramdown" else "gfm",
        "liquid": True,
    }


def _lower_keys(value: Any) -> Any:
    # Hugo's configuration keys are case-insensitive.
    if isinstance(value, dict):
        return {str(k).lower(): _lower_keys(v) for k, v in value.items()}
    return value


def hugo_config(name: str, raw: bytes) -> dict[str, Any] | None:
    """A Hugo config (TOML, YAML or JSON by ``name``'s suffix) as a mapping, its keys in
    lower case as Hugo reads them; None when it is none (or another tool's ``config.*``)."""
    data: Any
    try:
        if name.endswith(".toml"):
            data = load_toml(raw)
        elif name.endswith(".json"):
            data = json.loads(raw.decode("utf-8"))
        else:
            data = load_yaml(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict):
        return None
    data = _lower_keys(data)
    if name.startswith("config.") and not _looks_like_hugo(data):
        return None
    return data  # type: ignore[no-any-return]


def _hugo(name: str, raw: bytes) -> Settings | None:
    data = hugo_config(name, raw)
    if data is None:
        return None
    goldmark = data.get("markup", {}).get("goldmark", {})
    goldmark = goldmark if isinstance(goldmark, dict) else {}
    parser = goldmark.get("parser", {})
    parser = parser if isinstance(parser, dict) else {}
    attribute = parser.get("attribute", {})
    attribute = attribute if isinstance(attribute, dict) else {}
    title = attribute.get("title", True)
    extensions = goldmark.get("extensions", {})
    extensions = extensions if isinstance(extensions, dict) else {}
    markdown = ["footnotes"] if extensions.get("footnote", True) else []
    if attribute.get("block", False):
        markdown.append("block-attributes")
    variant = str(parser.get("autoheadingidtype", "github")).lower()
    if variant not in ("github", "github-ascii", "blackfriday"):
        variant = "github"
    content = data.get("contentdir", "content")
    return {
        "flavour": "hugo",
        "variant": variant,
        "attributes": bool(title),
        "folder": content if isinstance(content, str) else "content",
        "markdown": markdown,
    }


_HUGO_KEYS = lazy(r"baseurl|languagecode|markup|params|menus?|theme|module|taxonomies")


def _looks_like_hugo(data: dict[str, Any]) -> bool:
    """A ``config.toml`` is Hugo's only when it has Hugo's keys (other tools use the name)."""
    return any(_HUGO_KEYS.fullmatch(key) for key in data)
