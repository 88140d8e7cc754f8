"""What a tester's eight dated weeks with a LangGraph ``create_agent`` and memori's middleware showed (j17): the
capture rows are in ``tests/cases/langgraph_agent_weeks.toml``; the agent surface is tested here."""
