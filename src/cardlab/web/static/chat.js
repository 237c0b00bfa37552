// chat panel: see web/table_chat.py (filled in by the chat work)
