"""Test-wide settings.

Hypothesis's per-example deadline is a timed assertion: on a loaded 2-core CI machine
it fails tests for being slow, not wrong, so it is off for the whole suite (speed is
measured by the scripts in ``benchmarks/``).  Examples stay random but reproducible
through Hypothesis's own seed printing.
"""

from hypothesis import settings

settings.register_profile("project", deadline=None)
settings.load_profile("project")
