"""The parts of the Review screen (ui/screens/review.py keeps the page, the sidebar and the
question list): the card of the open question (``card``: header, answer editor, actions, a
decision refused because the row changed), its notes (``notes``: what the state asks, the
draft's warnings one line each) and the source pane (``source``: the cited page or passage, the
best document page of a past answer, "Ask this document", the citation list). They read the
workspace when called (``ui.resources.workspace()``), as the page does on each run."""
