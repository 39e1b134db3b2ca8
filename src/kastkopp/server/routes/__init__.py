"""The web routes, one :class:`fastapi.APIRouter` per area, wired by
:func:`kastkopp.server.app.create_app`. Each route reads its request, asks the table
service (:mod:`kastkopp.server.hub`) or the store, and answers; none holds game knowledge.
"""
