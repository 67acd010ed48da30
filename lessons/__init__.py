"""The course as package data (`meeple.course`): the numbered lessons and the teacher's guide.

`meeple lessons DIR` copies them out of the installed package; nothing here is imported.
"""
