"""Project memory: intent, decisions, relevant files, verification, risks,
next action and observed context, behind one write gate.

Layer 4 (spec §15): nothing in this package runs a command or mutates a file
outside the memory store; ``tests/steps/memory/test_memory_layer4.py`` walks the imports.
"""
