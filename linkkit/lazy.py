"""Names a package gives on first use (PEP 562): importing a package of linkkit pays for none of its modules, and
a run loads only those it uses (a web archive's run never the text scanner's patterns, ``--version`` no room)."""

import importlib
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any

# The names each package gives on first use (names_on_first_use), by package.
_GIVEN: dict[str, Mapping[str, str]] = {}


class _Package(types.ModuleType):
    """A package that gives its names on first use, each staying the object it names: the import system binds a
    submodule to its package's attribute of the same name when it first loads it (``linkkit.mail.links``,
    ``linkkit.security.flags``; customizing module attribute access, Python data model 3.3.2.1)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and name in _GIVEN.get(self.__name__, ()):
            return
        super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        """The package's names, those it gives on first use and its rooms (``__all__``), which ``help()`` and
        completion list (PEP 562 pairs a module ``__getattr__`` with a ``__dir__``)."""
        return sorted({*super().__dir__(), *_GIVEN.get(self.__name__, ()), *getattr(self, "__all__", ())})


def names_on_first_use(
    package: str, homes: Mapping[str, str], rooms: frozenset[str] = frozenset()
) -> Callable[[str], Any]:
    """The module ``__getattr__`` of *package* (PEP 562): each name of *homes* taken from the module it names and kept
    in the package from then on, each of *rooms* (its subpackages and modules) imported; all on first use, so that
    importing the package pays for none of them."""
    module = sys.modules[package]
    module.__class__ = _Package
    _GIVEN[package] = homes
    namespace = module.__dict__

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is not None:
            value = getattr(importlib.import_module(home, package), name)
            namespace[name] = value  # found directly from now on
            return value
        if name in rooms:
            return importlib.import_module(f".{name}", package)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
