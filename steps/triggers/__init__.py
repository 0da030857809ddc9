"""Triggers: nudges that keep project memory honest, tuned in policy YAML.

``metrics`` (what can be measured), ``conditions`` (the data that combines
them, evaluated without ``eval``), ``policy`` (the ``triggers`` section),
``session`` (what was shown, snoozed or dismissed in this session),
``baseline`` (the ignored-prompt rate, counts only, derived from the audit)
and ``service`` (the one front door: check, nudges, respond).
"""
