"""The Python flow analysis (issue 25): a finding is a raw source reaching a published sink through
no sanitiser, followed across functions and modules.

Pipeline: ``build`` turns one module's ``ast`` into plain, cacheable facts (per function: what it
returns, the calls it makes, the sinks its values reach, all as symbolic atoms); ``resolve`` joins the
facts of every module of a run over their imports and reports each source that reaches a sink, with
its trace. The models (sources, sanitizers, propagators, sinks) are data: ``rules/flow/models.toml``.
"""
