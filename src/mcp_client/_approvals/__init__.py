"""Approving tool calls before they run: the app's policy and the person's decision, without a UI.

``policy.py`` holds ``ToolPolicy`` (which calls are allowed, denied or asked about);
``request.py`` the ``ApprovalRequest`` an ``approval_callback`` is handed and the ``ApprovalResult`` it
returns. UIs that answer an approval live in ``ui_adapters``.
"""
