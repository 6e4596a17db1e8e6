"""The ``trinidad`` command's commands, one module a command or command group (wired by
:mod:`trinidad.cli`). Each imports the engine inside its function, so a command that only reads a
finished run loads no compiler."""
