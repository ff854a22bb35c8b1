"""Results shared by several features (layer 4.5, between semantics and features).

Every feature module imports from here and from the layers below, never from
another feature module, so features can be added, removed and read alone:

* :mod:`.results`: the plain dataclasses features return (locations, edits,
  hover text and its writer, completion items);
* :mod:`.frames`: what the cursor is on and the frame facts several features
  print (attached link, resolved pose, numbers);
* :mod:`.includes`: what an ``<include>`` brings in;
* :mod:`.references`: every place that names a frame;
* :mod:`.schema`: the schema facts of an element or attribute (versions,
  multiplicity, enums, spec pages) and the XML context at the cursor.
"""
