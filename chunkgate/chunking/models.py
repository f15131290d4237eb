"""Embedding models chunkgate knows by name (``embed.model``): each one's tokenizer and
input limit, the hard limit of CG201.

Sizes are meant against the model that embeds a chunk: over its input limit the
embedder truncates and content is lost. Each limit below is the model's own
documentation (its card, or its provider's model list), read for issue 41:

- text-embedding-3-small, -3-large, -ada-002: 8,191 tokens of cl100k_base
  (platform.openai.com/docs/guides/embeddings, "max input").
- bge-small/base/large-en-v1.5: 512 (huggingface.co/BAAI/bge-small-en-v1.5 and
  siblings: max sequence length 512); bge-m3: 8,192 (huggingface.co/BAAI/bge-m3).
- e5-small/base/large-v2 and multilingual-e5-small/base/large: 512
  (huggingface.co/intfloat/e5-base-v2: "long texts will be truncated to at most 512
  tokens").
- all-MiniLM-L6-v2: 256 (huggingface.co/sentence-transformers/all-MiniLM-L6-v2:
  "input text longer than 256 word pieces is truncated").
- nomic-embed-text-v1.5: 8,192 (huggingface.co/nomic-ai/nomic-embed-text-v1.5).
- jina-embeddings-v2-base-en, jina-embeddings-v3: 8,192
  (huggingface.co/jinaai/jina-embeddings-v3, arXiv 2310.19923 for v2).
- embed-english-v3.0, embed-multilingual-v3.0: 512 (docs.cohere.com/docs/embed-2,
  "Max Tokens (Context Length)"); tokenizers on huggingface.co/Cohere.
- voyage-3, voyage-3-lite, voyage-code-3: 32,000 (docs.voyageai.com/docs/embeddings,
  "context length"); tokenizers on huggingface.co/voyageai.
- text-embedding-004, gemini-embedding-001: 2,048 (ai.google.dev/gemini-api/docs/models,
  "input token limit").

Gemini's tokenizer is not published (the API counts tokens), so its sizes are the
estimate (bytes / 4); set ``tokenizer`` to count otherwise. The open models'
tokenizers are their ``tokenizer.json`` on the Hugging Face Hub, read from the local
Hugging Face cache (``huggingface:<repo>``), never downloaded by chunkgate.
"""

from __future__ import annotations

from typing import NamedTuple

# The hard limit without a model: the common API models' input limit (OpenAI's 8,191
# rounded to the power of two bge-m3, nomic and jina share).
DEFAULT_LIMIT = 8192


class EmbedModel(NamedTuple):
    name: str
    tokenizer: str  # a ``tokenizer`` setting: tiktoken:<encoding> | huggingface:<repo or path>
    limit: int  # the most tokens the model embeds; beyond that it truncates


def _hub(name: str, repo: str, limit: int) -> EmbedModel:
    return EmbedModel(name, f"huggingface:{repo}", limit)


_OPENAI = "tiktoken:cl100k_base"
MODELS: dict[str, EmbedModel] = {
    model.name: model
    for model in (
        EmbedModel("text-embedding-3-small", _OPENAI, 8191),
        EmbedModel("text-embedding-3-large", _OPENAI, 8191),
        EmbedModel("text-embedding-ada-002", _OPENAI, 8191),
        _hub("bge-small-en-v1.5", "BAAI/bge-small-en-v1.5", 512),
        _hub("bge-base-en-v1.5", "BAAI/bge-base-en-v1.5", 512),
        _hub("bge-large-en-v1.5", "BAAI/bge-large-en-v1.5", 512),
        _hub("bge-m3", "BAAI/bge-m3", 8192),
        _hub("e5-small-v2", "intfloat/e5-small-v2", 512),
        _hub("e5-base-v2", "intfloat/e5-base-v2", 512),
        _hub("e5-large-v2", "intfloat/e5-large-v2", 512),
        _hub("multilingual-e5-small", "intfloat/multilingual-e5-small", 512),
        _hub("multilingual-e5-base", "intfloat/multilingual-e5-base", 512),
        _hub("multilingual-e5-large", "intfloat/multilingual-e5-large", 512),
        _hub("all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2", 256),
        _hub("nomic-embed-text-v1.5", "nomic-ai/nomic-embed-text-v1.5", 8192),
        _hub("jina-embeddings-v2-base-en", "jinaai/jina-embeddings-v2-base-en", 8192),
        _hub("jina-embeddings-v3", "jinaai/jina-embeddings-v3", 8192),
        _hub("embed-english-v3.0", "Cohere/Cohere-embed-english-v3.0", 512),
        _hub("embed-multilingual-v3.0", "Cohere/Cohere-embed-multilingual-v3.0", 512),
        _hub("voyage-3", "voyageai/voyage-3", 32000),
        _hub("voyage-3-lite", "voyageai/voyage-3-lite", 32000),
        _hub("voyage-code-3", "voyageai/voyage-code-3", 32000),
        EmbedModel("text-embedding-004", "estimate", 2048),
        EmbedModel("gemini-embedding-001", "estimate", 2048),
    )
}
