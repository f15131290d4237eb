#!/usr/bin/env bash
# Fetch real code of every tree-sitter language chunkgate chunks, and Sphinx's
# own documentation tree, from package registries (npm, Debian, PyPI), for
# benchmarks/code_check.py and benchmarks/rst_check.py. Run by hand; the
# tests use the small fixtures in tests/data/code instead.
#
#   bash benchmarks/fetch_code.sh [DIR]     # default /tmp/chunkgate-code
set -euo pipefail
DIR="${1:-/tmp/chunkgate-code}"
mkdir -p "$DIR"/{npm,deb,pypi}
cd "$DIR"

# npm: JavaScript (express, axios), TypeScript/TSX (zod, react-native-screens,
# expo-modules-core, which also ships Kotlin and Swift sources).
for package in express@4.21.2 axios@1.7.9 zod@3.24.1 react-native-screens@4.4.0 expo-modules-core@2.1.2; do
  name="${package%@*}"
  [ -d "npm/$name" ] && continue
  (cd npm && npm pack --silent "$package" >/dev/null && mkdir -p "$name" \
    && tar -xzf ./*.tgz -C "$name" && rm -f ./*.tgz)
done

# Debian: Go, Rust, Ruby, PHP, C and C++ headers, shell scripts.
debs=(golang-github-spf13-cobra-dev golang-github-stretchr-testify-dev librust-regex-dev
      librust-serde-dev ruby-rack ruby-thor php-symfony-console php-twig libfmt-dev
      bash-completion libc6-dev)
(cd deb && for package in "${debs[@]}"; do
  [ -d "$package" ] && continue
  apt-get download -qq "$package" && dpkg -x "$package"_*.deb "$package" && rm -f "$package"_*.deb
done)

# PyPI sdists: Java (JPype), C# (pythonnet), C (zstandard), Sphinx's own docs.
python3 -m pip download -q --no-deps --no-binary :all: -d pypi \
  JPype1==1.5.1 pythonnet==3.0.5 zstandard==0.23.0 sphinx==9.0.4
(cd pypi && for archive in *.tar.gz; do
  [ -d "${archive%.tar.gz}" ] || tar -xzf "$archive"
done)
echo "$DIR"
