"""The pages written from a run's analysis: the design report (``trinidad report``) and the compare page (``trinidad compare``).

They read :mod:`analysis` tables only: charts, HTML and the CSV/JSON files beside them.
"""
