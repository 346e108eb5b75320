"""The build's one part that pyproject.toml cannot declare: the solver's compiled core.

``ubongo._exact`` (src/ubongo/_exact.c) is plain C over Python's C API: building it needs a C
compiler and Python's headers only.  It is optional: where it cannot be built, the install
goes on without it and the solver uses its pure-Python core (ubongo/solver.py says so once).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "ubongo._exact",
            sources=["src/ubongo/_exact.c"],
            depends=["src/ubongo/_exact_width.h"],
            optional=True,
        )
    ]
)
