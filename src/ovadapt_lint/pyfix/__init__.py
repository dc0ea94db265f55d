"""Python fixes that change code the way a reviewer would (issue 31).

``choose`` decides, without libcst, which findings of a Python file --fix may touch (the rules'
applicability: safe, unsafe, none) and which sanitiser a flow is routed through; ``codemods`` applies
them with libcst, which is imported only when a Python fix is planned (a plain run never loads it).
"""
