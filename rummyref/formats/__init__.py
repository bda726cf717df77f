"""Date and number formats per language (FORMAT_MODULE_PATH): the app's English is read at
European tables, so it writes dates day first and times on the 24-hour clock."""
