# lesson 15 data: engine run (allowed), statistics computed here
import math
from scipy.stats import beta as B
from meeple.rules import simulate
from meeple.rules import piggyback_brigade as pb
run = simulate("piggyback-brigade", pb.Config(), "heuristic", games=640, seed=15, progress=False)
fw=[int(x) for x in run.table[run.table["seat"]==0]["won"].tolist()]
print("n",len(fw),"k40",sum(fw[:40]),"k10",sum(fw[:10]),"k160",sum(fw[:160]),"k640",sum(fw))
dec=None;pre=None;w=0
for m,x in enumerate(fw,1):
    w+=x; a,b=1+w,1+m-w; c=B.cdf(.3,a,b)
    if dec is None and not(.05<=c<=.95): dec=(m,w)
    if pre is None and B.ppf(.975,a,b)-B.ppf(.025,a,b)<.10: pre=(m,w)
print("decided",dec,"precise",pre)
