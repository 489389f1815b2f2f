# What Discord sends that Ludibot cannot read (issue 23)

error-stale_command = This command has just changed; Discord is updating your list of commands. Try again in a minute.
error-unreadable = This request arrived damaged or incomplete: Ludibot could not read it. Nothing changed; please try again.
error-missing_field = This request arrived incomplete (“{ $field }” is missing): Ludibot could not read it. Nothing changed; please try again.
error-bad_field = This request arrived damaged (“{ $field }” is missing or not valid): Ludibot could not read it. Nothing changed; please try again.
