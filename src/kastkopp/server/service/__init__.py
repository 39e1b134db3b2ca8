"""The table service under the web routes; see :mod:`kastkopp.server.service.base`."""
